package io.worldflow.world.aws.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import io.worldflow.tck.TimersContract;
import io.worldflow.world.aws.AwsWorldProvider;
import io.worldflow.world.aws.Emulators;

class AwsTimersContractTest extends TimersContract {

    @Override
    protected WorldProvider provider() {
        return new AwsWorldProvider();
    }

    @Override
    protected WorldConfig config(String storageId) {
        return Emulators.shared().config(storageId + "_");
    }
}
