package io.worldflow.world.aws;

import io.worldflow.tck.process.QueueLimitsAcrossProcesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * Queue limits hold across three worker processes on one set of tables and queues ({@link QueueLimitsAcrossProcesses}),
 * the processes reaching DynamoDB Local and ElasticMQ in this one over the network, as they would reach AWS.
 */
class QueueLimitsProcessTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void concurrencyKeysAndRateHoldAcrossThreeWorkerProcesses() throws Exception {
        // the emulators take some tens of writes a second: a rate they keep up with, so that the limit paces the runs
        QueueLimitsAcrossProcesses.check(Emulators.shared().config(Emulators.freshPrefix()), dir, 2);
    }
}
