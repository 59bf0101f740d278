package io.worldflow.world.local.process;

import io.worldflow.spi.WorldConfig;
import io.worldflow.tck.process.RateLimitAfterKill;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

/**
 * A rate limit holds when a worker holding runs admitted ahead is killed, and another process opens the file after it
 * ({@link RateLimitAfterKill}).
 */
class RateLimitAfterKillTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void runsAKilledWorkerHeldAheadStartAtNewStartsOfTheLimit() throws Exception {
        WorldConfig config = WorldConfig.of(Map.of(
                "worldflow.world",
                "local",
                "worldflow.local.path",
                dir.resolve("runs.db").toString()));

        RateLimitAfterKill.check(config, dir, 20, RateLimitAfterKill.World.ONE_PROCESS);
    }
}
