package io.worldflow.world.aws.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import io.worldflow.tck.WorldConformanceKit;
import io.worldflow.world.aws.AwsWorldProvider;
import io.worldflow.world.aws.Emulators;

/** The conformance kit on the AWS world: one table and queue prefix per storage id, on the shared emulators. */
class AwsConformanceTest extends WorldConformanceKit {

    @Override
    protected WorldProvider provider() {
        return new AwsWorldProvider();
    }

    @Override
    protected WorldConfig config(String storageId) {
        return Emulators.shared().config(storageId + "_");
    }
}
