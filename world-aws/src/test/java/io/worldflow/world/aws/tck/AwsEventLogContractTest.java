package io.worldflow.world.aws.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import io.worldflow.tck.EventLogContract;
import io.worldflow.world.aws.AwsWorldProvider;
import io.worldflow.world.aws.Emulators;

class AwsEventLogContractTest extends EventLogContract {

    @Override
    protected WorldProvider provider() {
        return new AwsWorldProvider();
    }

    @Override
    protected WorldConfig config(String storageId) {
        return Emulators.shared().config(storageId + "_");
    }
}
