package io.worldflow.world.aws.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.world.aws.AwsWorldProvider;

/**
 * The conformance kit again on the shared emulators, with each shared index key spread over 16 shards: every index
 * is written and read across its shards. A class of its own, so that the build runs it beside the one-shard kit.
 */
class AwsSixteenShardConformanceTest extends AwsConformanceTest {

    @Override
    protected WorldConfig configWithPrefix(String prefix) {
        return super.configWithPrefix(prefix).with(AwsWorldProvider.INDEX_SHARDS, "16");
    }
}
