package io.worldflow.world.aws.internal;

import io.worldflow.RunStatus;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.event.WorkflowContinuedAsNew;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.ManualClock;
import io.worldflow.spi.Append;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.WorldContext;
import io.worldflow.world.aws.Emulators;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Retention of a continue-as-new chain whose runs ended before a run's item named its successor: the conformance kit
 * cannot write such items, so the attribute is removed here with a plain client, as those runs were left.
 */
class ChainPurgeItemsTest {

    private final JsonCodec json = new JsonCodec();
    private final ManualClock clock = ManualClock.start();
    private final String prefix = Emulators.freshPrefix();
    private final Tables tables = Tables.named(prefix);
    private final DynamoDbClient dynamo = Emulators.shared().dynamoClient();
    private final AwsWorld world =
            AwsWorld.open(new WorldContext(Emulators.shared().config(prefix), clock, json.eventCodec()), List.of());

    @AfterEach
    void close() {
        world.close();
        dynamo.close();
    }

    private NewRun run(String runId, String continuedFrom) {
        return new NewRun(
                        runId,
                        "chain.v1",
                        json.encode(runId, "input"),
                        clock.instant(),
                        clock.instant(),
                        null,
                        "default",
                        0)
                .withContinuedFrom(continuedFrom);
    }

    /** Ends {@code runId} (log length 1) by handing over to {@code successor}, as continue-as-new does. */
    private void handOver(String runId, String successor) {
        NewRun next = run(successor, runId);
        Append end = new Append(
                        runId,
                        1,
                        List.of(new WorkflowContinuedAsNew(runId, 1, clock.instant(), successor, next.input())),
                        RunStatus.COMPLETED)
                .withEffects(List.of(next), List.of(), List.of(), successor);
        assertThat(world.eventLog().append(List.of(end)).getFirst().appended()).isTrue();
    }

    /** Takes the successor's name and the predecessor's off the items, as runs that ended before they were kept. */
    private void asWrittenBefore(String runId, String successor) {
        dynamo.updateItem(u -> u.tableName(tables.runs())
                .key(RunItem.key(runId))
                .updateExpression("REMOVE #s")
                .expressionAttributeNames(Map.of("#s", RunItem.SUCCESSOR)));
        dynamo.updateItem(u -> u.tableName(tables.runs())
                .key(RunItem.key(successor))
                .updateExpression("REMOVE #c")
                .expressionAttributeNames(Map.of("#c", RunItem.CONTINUED_FROM)));
    }

    @Test
    void aRunThatContinuedBeforeItsItemNamedItsSuccessorStaysWhileTheSuccessorIsThere() {
        world.eventLog().create(run("old", null));
        handOver("old", "old~2");
        asWrittenBefore("old", "old~2");
        world.eventLog().create(run("done", null));
        Append completed = new Append(
                "done",
                1,
                List.of(new WorkflowCompleted("done", 1, clock.instant(), json.encode("out", "output"))),
                RunStatus.COMPLETED);
        assertThat(world.eventLog().append(List.of(completed)).getFirst().appended())
                .isTrue();
        clock.advance(Duration.ofHours(1));

        assertThat(world.eventLog().purgeFinished(clock.instant(), 100)).isEqualTo(1);
        assertThat(world.runQueries().get("done")).isEmpty();
        assertThat(world.runQueries().get("old")).isPresent();

        // once the successor has gone, the run it continued goes with the next call
        Append last = new Append(
                "old~2",
                1,
                List.of(new WorkflowCompleted("old~2", 1, clock.instant(), json.encode("out", "output"))),
                RunStatus.COMPLETED);
        assertThat(world.eventLog().append(List.of(last)).getFirst().appended()).isTrue();
        clock.advance(Duration.ofHours(1));
        assertThat(world.eventLog().purgeFinished(clock.instant(), 100)).isEqualTo(1);
        assertThat(world.runQueries().get("old~2")).isEmpty();
        assertThat(world.eventLog().purgeFinished(clock.instant(), 100)).isEqualTo(1);
        assertThat(world.runQueries().get("old")).isEmpty();
    }
}
