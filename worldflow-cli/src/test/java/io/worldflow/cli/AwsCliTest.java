package io.worldflow.cli;

import io.worldflow.world.aws.Emulators;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command over the AWS world, on DynamoDB Local and ElasticMQ started in this JVM (world-aws's own {@link
 * Emulators}), with the application's worker up: the command's child JVM reaches the same tables and queues.
 */
class AwsCliTest extends CliScenarioTest {

    private final String prefix = Emulators.freshPrefix();

    @Override
    Map<String, String> worldProperties() {
        Map<String, String> p =
                new LinkedHashMap<>(Emulators.shared().config(prefix).asMap());
        p.put("worldflow.signal.url", "http://127.0.0.1:7070");
        p.put("worldflow.signal.secret", LocalWorldCliTest.SECRET);
        return p;
    }

    @Override
    List<String> connection() {
        List<String> args = new ArrayList<>();
        worldProperties().forEach((k, v) -> {
            args.add("-p");
            args.add(k + "=" + v);
        });
        return args;
    }

    @Override
    boolean live() {
        return true;
    }

    @Override
    String actor() {
        return "cli:" + System.getProperty("user.name");
    }

    @Override
    Map<String, List<String>> extraCommands() {
        return Map.of("printSchema", cli("schema", "print"));
    }

    @Test
    void hasNoSqlSchemaToPrint() {
        assertThat(failed("printSchema", ExitCodes.USAGE))
                .isEqualTo("worldflow: world 'aws' keeps no SQL schema to print: it creates its DynamoDB tables and"
                        + " SQS queues when missing ('worldflow schema migrate' does so now)");
    }
}
