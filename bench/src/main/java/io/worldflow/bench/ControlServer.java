package io.worldflow.bench;

import io.worldflow.RunStatus;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The worker JVM's control port (loopback only): one line per request, one line per answer, served from
 * the worker's own client ({@link DirectClient}). See {@link RemoteClient} for the other end.
 */
final class ControlServer implements AutoCloseable {

    private final ServerSocket server;
    private final DirectClient client;
    /** The worker's hop marks, or null when it does not record them. */
    private final StageRecorder stages;

    ControlServer(DirectClient client, StageRecorder stages) {
        this.client = client;
        this.stages = stages;
        try {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the control port", e);
        }
        Thread.ofPlatform().daemon().name("bench-control").start(this::accept);
    }

    int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                s.setTcpNoDelay(true);
                Thread.ofPlatform().daemon().name("bench-control-conn").start(() -> serve(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s;
                BufferedReader in =
                        new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                Writer out = new OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                String answer;
                try {
                    answer = "OK " + handle(line.split(" "));
                } catch (RuntimeException e) {
                    answer = "ERR " + String.valueOf(e).replace('\n', ' ');
                }
                out.write(answer);
                out.write('\n');
                out.flush();
            }
        } catch (IOException e) {
            // the driver went away
        }
    }

    private String handle(String[] w) {
        return switch (w[0]) {
            case "PING" -> "PONG";
            case "SUBMIT" ->
                w.length > 3
                        ? client.submit(w[1], Integer.parseInt(w[2]), w[3], Instant.parse(w[4]))
                        : client.submit(w[1], Integer.parseInt(w[2]));
            case "SIGNAL" -> {
                client.signal(w[1], w[2], Long.parseLong(w[3]));
                yield "";
            }
            case "STATUS" -> client.status(w[1]).name();
            case "COUNT" -> Long.toString(client.count(w[1], RunStatus.valueOf(w[2])));
            case "AWAIT" -> {
                client.await(w[1], Long.parseLong(w[2]));
                yield "";
            }
            case "RESULT" -> client.result(w[1]);
            case "EVENTS" -> Long.toString(client.events(w[1]));
            case "VERIFY" -> Double.toString(client.verifyMillis(w[1]));
            case "SPAN" -> {
                BenchClient.Span sp = client.span(w[1]);
                yield sp.firstStartedMicros() + " " + sp.lastFinishedMicros() + " " + sp.runs();
            }
            case "HEAP" -> Long.toString(heapAfterGc());
            case "MARKS" -> recorder().marksOf(w[1]);
            case "NOTICES" -> recorder().notices();
            case "JVMTIMES" -> jvmTimes();
            default -> throw new IllegalArgumentException("unknown request " + w[0]);
        };
    }

    private StageRecorder recorder() {
        if (stages == null) {
            throw new IllegalStateException("this worker does not record stages (" + StageRecorder.PROPERTY + ")");
        }
        return stages;
    }

    /** Milliseconds this JVM spent in garbage collection and in JIT compilation so far, space-separated. */
    private static String jvmTimes() {
        long gc = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            gc += Math.max(0, b.getCollectionTime());
        }
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long compiling = jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
        return gc + " " + compiling;
    }

    static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
