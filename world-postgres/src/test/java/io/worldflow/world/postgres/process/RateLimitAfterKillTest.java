package io.worldflow.world.postgres.process;

import io.worldflow.spi.WorldConfig;
import io.worldflow.tck.process.RateLimitAfterKill;
import io.worldflow.world.postgres.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.UUID;

/** A rate limit holds when a worker holding runs admitted ahead is killed ({@link RateLimitAfterKill}). */
class RateLimitAfterKillTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void runsAKilledWorkerHeldAheadStartAtNewStartsOfTheLimit() throws Exception {
        String schema = "rk_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        WorldConfig config = TestPostgres.shared().config(schema).with("worldflow.world", "postgres");

        RateLimitAfterKill.check(config, dir, 20, RateLimitAfterKill.World.SHARED);
    }
}
