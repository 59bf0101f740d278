package io.worldflow.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One worker JVM ({@link BenchWorker}) on this process's classpath, with default JVM settings but this process's
 * access flags: started, waited for until it prints its control port, measured from {@code /proc} (peak RSS =
 * {@code VmHWM}, CPU = user + system time), and stopped with SIGTERM.
 */
final class WorkerProcess implements AutoCloseable {

    /** How long a worker may take to exit after SIGTERM before it is killed. */
    static final Duration STOP_WAIT = Duration.ofSeconds(30);

    private final Process process;
    private final RemoteClient control;
    private Measure last;

    /** Peak resident set (bytes) and CPU time (seconds) of the worker JVM. */
    record Measure(long peakRssBytes, long rssBytes, double cpuSeconds) {}

    private WorkerProcess(Process process, int port) {
        this.process = process;
        this.control = new RemoteClient(port);
    }

    static WorkerProcess start(Map<String, String> worldProperties, Path log) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(accessFlags());
        worldProperties.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        String extra = System.getProperty("bench.worker.jvm-args", "");
        for (String a : extra.split(" ")) {
            if (!a.isBlank()) {
                cmd.add(a);
            }
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(BenchWorker.class.getName());
        Process p;
        try {
            Files.createDirectories(log.getParent());
            p = new ProcessBuilder(cmd)
                    .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the worker JVM", e);
        }
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<Integer> ready = CompletableFuture.supplyAsync(() -> {
            try {
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.startsWith(BenchWorker.READY)) {
                        return Integer.parseInt(
                                line.substring(BenchWorker.READY.length()).strip());
                    }
                }
                throw new IllegalStateException(
                        "the worker JVM ended before it was ready (exit " + waitExit(p) + "); see " + log);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        try {
            int port = ready.get(120, TimeUnit.SECONDS);
            Thread.ofPlatform().daemon().name("bench-worker-stdout").start(() -> drain(out));
            return new WorkerProcess(p, port);
        } catch (TimeoutException e) {
            p.destroyForcibly();
            throw new IllegalStateException("the worker JVM was not ready in 120 s; see " + log, e);
        } catch (Exception e) {
            p.destroyForcibly();
            throw new IllegalStateException("the worker JVM failed to start; see " + log, e);
        }
    }

    /**
     * The flags this JVM was started with that allow native access and {@code sun.misc.Unsafe} memory access (the
     * parent pom's {@code worldflow.jvm.flags}, given by the bench profile and by surefire): the worker gets the same,
     * so that it starts without JDK warnings.
     */
    private static List<String> accessFlags() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a ->
                        a.startsWith("--enable-native-access=") || a.startsWith("--sun-misc-unsafe-memory-access="))
                .toList();
    }

    private static int waitExit(Process p) {
        try {
            return p.waitFor(10, TimeUnit.SECONDS) ? p.exitValue() : -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static void drain(BufferedReader out) {
        try {
            while (out.readLine() != null) {
                // the worker prints nothing else of interest
            }
        } catch (IOException e) {
            // ended
        }
    }

    long pid() {
        return process.pid();
    }

    /** The client calls forwarded to this worker (for worlds the worker owns), and its heap. */
    RemoteClient control() {
        return control;
    }

    /** Reads the worker's peak RSS and CPU time so far. */
    Measure measure() {
        long hwm = 0;
        long rss = 0;
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (line.startsWith("VmHWM:")) {
                    hwm = kib(line);
                } else if (line.startsWith("VmRSS:")) {
                    rss = kib(line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc of the worker " + process.pid(), e);
        }
        double cpu = process.toHandle()
                        .info()
                        .totalCpuDuration()
                        .map(Duration::toNanos)
                        .orElse(0L)
                / 1e9;
        return new Measure(hwm, rss, cpu);
    }

    private static long kib(String line) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
    }

    /** Measures, then SIGTERM and wait; the measure taken just before the signal. */
    Measure stop() {
        if (last != null) {
            return last;
        }
        last = process.isAlive() ? measure() : new Measure(0, 0, 0);
        control.close();
        process.destroy(); // SIGTERM: the worker's shutdown hook drains
        try {
            if (!process.waitFor(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        return last;
    }

    /** The worker's exit status, once stopped: 143 when it exited on SIGTERM, 137 when it had to be killed. */
    int exitValue() {
        return process.exitValue();
    }

    @Override
    public void close() {
        stop();
    }
}
