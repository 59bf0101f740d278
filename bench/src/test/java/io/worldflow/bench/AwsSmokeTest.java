package io.worldflow.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole harness end to end with tiny sizes on the aws world over its emulators (DynamoDB Local and ElasticMQ in
 * the driver's JVM): every workload runs with a real worker JVM, every run completes, every figure is there. A class
 * of its own, so that the build runs it beside {@link SmokeTest}. Asserts behaviour, never timing.
 */
class AwsSmokeTest {

    @Test
    @Timeout(360)
    void everyWorkloadOnTheAwsWorldProducesItsFigures(@TempDir Path dir) {
        Harness harness = new Harness(List.of("aws"), Workload.DEFAULT, 1, Sizes.smoke(), false, dir.resolve("logs"));
        Results results = harness.run();

        assertThat(results.failures()).isEmpty();
        assertThat(results.worlds()).containsExactly("aws");
        SmokeTest.assertEveryFigure(results, "aws");
        for (String key : SmokeTest.POSTGRES_ONLY) {
            assertThat(results.values("aws", key)).as(key).isEmpty();
        }
    }
}
