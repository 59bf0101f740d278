package io.worldflow.world.postgres.process;

import io.worldflow.spi.WorldConfig;
import io.worldflow.tck.process.QueueLimitsAcrossProcesses;
import io.worldflow.world.postgres.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.UUID;

/** Queue limits hold across three worker processes on one Postgres database ({@link QueueLimitsAcrossProcesses}). */
class QueueLimitsProcessTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void concurrencyKeysAndRateHoldAcrossThreeWorkerProcesses() throws Exception {
        String schema = "ql_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        WorldConfig config = TestPostgres.shared().config(schema).with("worldflow.world", "postgres");

        QueueLimitsAcrossProcesses.check(config, dir);
    }
}
