package io.worldflow.bench;

import io.worldflow.RunStatus;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The workloads' client calls, forwarded over a loopback socket to the worker JVM, which makes them on its
 * own Worldflow ({@link ControlServer}). Used for worlds that one process owns (local), and for what only
 * the worker can tell (its heap). One request at a time, one line each way.
 */
final class RemoteClient implements BenchClient {

    private final Socket socket;
    private final BufferedReader in;
    private final Writer out;

    RemoteClient(int port) {
        try {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setTcpNoDelay(true);
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            out = new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach the worker's control port " + port, e);
        }
    }

    synchronized String call(String... words) {
        try {
            out.write(String.join(" ", words));
            out.write('\n');
            out.flush();
            String line = in.readLine();
            if (line == null) {
                throw new IllegalStateException("the worker closed its control connection");
            }
            if (line.startsWith("ERR ")) {
                throw new IllegalStateException("worker: " + line.substring(4));
            }
            return line.startsWith("OK ") ? line.substring(3) : line.equals("OK") ? "" : line;
        } catch (IOException e) {
            throw new UncheckedIOException("control connection to the worker failed", e);
        }
    }

    @Override
    public String submit(String workflow, int input) {
        return call("SUBMIT", workflow, Integer.toString(input));
    }

    @Override
    public String submit(String workflow, int input, String queue, Instant availableAt) {
        return call("SUBMIT", workflow, Integer.toString(input), queue, availableAt.toString());
    }

    @Override
    public void signal(String runId, String name, long payload) {
        call("SIGNAL", runId, name, Long.toString(payload));
    }

    @Override
    public RunStatus status(String runId) {
        return RunStatus.valueOf(call("STATUS", runId));
    }

    @Override
    public long count(String workflow, RunStatus status) {
        return Long.parseLong(call("COUNT", workflow, status.name()));
    }

    @Override
    public void await(String runId, long timeoutMs) {
        call("AWAIT", runId, Long.toString(timeoutMs));
    }

    @Override
    public String result(String runId) {
        return call("RESULT", runId);
    }

    @Override
    public long events(String runId) {
        return Long.parseLong(call("EVENTS", runId));
    }

    @Override
    public double verifyMillis(String runId) {
        return Double.parseDouble(call("VERIFY", runId));
    }

    @Override
    public Span span(String workflow) {
        String[] p = call("SPAN", workflow).split(" ");
        return new Span(Long.parseLong(p[0]), Long.parseLong(p[1]), Long.parseLong(p[2]));
    }

    /** Run {@code runId}'s hop marks in the worker: {@code leases;commits;wakes} (see {@link StageRecorder}). */
    String marks(String runId) {
        return call("MARKS", runId);
    }

    /** The worker JVM's milliseconds in GC and in JIT compilation so far, space-separated. */
    String jvmTimes() {
        return call("JVMTIMES");
    }

    /** When the world's notices reached the worker (see {@link StageRecorder}). */
    String notices() {
        return call("NOTICES");
    }

    /** The worker's heap in use right after a full GC, in bytes. */
    long heapAfterGc() {
        return Long.parseLong(call("HEAP"));
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
