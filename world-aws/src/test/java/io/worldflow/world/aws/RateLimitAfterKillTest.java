package io.worldflow.world.aws;

import io.worldflow.tck.process.RateLimitAfterKill;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * A rate limit holds when a worker holding runs admitted ahead is killed ({@link RateLimitAfterKill}), the processes
 * reaching DynamoDB Local and ElasticMQ in this one over the network.
 */
class RateLimitAfterKillTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void runsAKilledWorkerHeldAheadStartAtNewStartsOfTheLimit() throws Exception {
        // the emulators take some tens of writes a second: a rate they keep up with, so that the limit paces the runs
        RateLimitAfterKill.check(
                Emulators.shared().config(Emulators.freshPrefix()), dir, 5, RateLimitAfterKill.World.EMULATED);
    }
}
