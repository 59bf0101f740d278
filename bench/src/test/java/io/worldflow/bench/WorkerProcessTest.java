package io.worldflow.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The benchmarks' worker JVM: it starts without JDK warnings, and exits by itself when told to stop (SIGTERM). */
class WorkerProcessTest {

    @Test
    @Timeout(90)
    void aWorkerStartsWithoutJdkWarningsAndExitsOnSigterm(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("worker.log");
        WorkerProcess worker = WorkerProcess.start(
                Map.of(
                        "worldflow.world",
                        "local",
                        "worldflow.local.path",
                        dir.resolve("worker.db").toString()),
                log);
        long sent = System.nanoTime();
        worker.stop();
        Duration took = Duration.ofNanos(System.nanoTime() - sent);

        String stderr = Files.readString(log);
        assertThat(worker.exitValue())
                .as("exited on SIGTERM, not killed after %s; its log: %s", WorkerProcess.STOP_WAIT, stderr)
                .isEqualTo(143);
        assertThat(took).isLessThan(WorkerProcess.STOP_WAIT);
        assertThat(stderr).as("JDK warnings").doesNotContain("WARNING: A restricted method", "sun.misc.Unsafe");
    }
}
