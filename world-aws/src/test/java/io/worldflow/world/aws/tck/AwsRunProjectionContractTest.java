package io.worldflow.world.aws.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import io.worldflow.tck.RunProjectionContract;
import io.worldflow.world.aws.AwsWorldProvider;
import io.worldflow.world.aws.Emulators;

class AwsRunProjectionContractTest extends RunProjectionContract {

    @Override
    protected WorldProvider provider() {
        return new AwsWorldProvider();
    }

    @Override
    protected WorldConfig config(String storageId) {
        return Emulators.shared().config(storageId + "_");
    }
}
