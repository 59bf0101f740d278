package io.worldflow.world.aws.internal;

import io.worldflow.Payload;
import io.worldflow.RunStatus;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.ManualClock;
import io.worldflow.spi.Append;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.PendingSignal;
import io.worldflow.spi.RevokedUrl;
import io.worldflow.spi.SignalKey;
import io.worldflow.spi.SignalSent;
import io.worldflow.spi.WorldContext;
import io.worldflow.world.aws.Emulators;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;

import static io.worldflow.world.aws.internal.Attrs.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Revoked signal URLs live in the signal keys table beside the keys signals were sent with: what the conformance kit
 * cannot reach is a signal key that reads like a revocation, and a run that ends carrying its signals on.
 */
class RevokedUrlItemsTest {

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

    @Test
    void aRevocationsKeyIsLongerThanAnySignalsKeySoNeverOne() {
        assertThat(DynamoSignals.REVOKED).hasSizeGreaterThan(SignalKey.MAX_LENGTH);
        create("run-1");

        world.signals().revokeUrl("run-1", "tok-a", "ops:ana");

        var item = dynamo.getItem(b -> b.tableName(tables.signalKeys())
                        .consistentRead(true)
                        .key(Map.of(
                                DynamoSignals.RUN, s("run-1"), DynamoSignals.KEY, s(DynamoSignals.REVOKED + "tok-a"))))
                .item();
        assertThat(item).containsKeys(DynamoSignals.SENT_AT).doesNotContainKey(DynamoSignals.ID);
        assertThat(item.get(DynamoSignals.ACTOR)).isEqualTo(AttributeValue.fromS("ops:ana"));
    }

    @Test
    void aSignalKeyThatReadsLikeARevocationIsAKeyLikeAnyOther() {
        create("run-1");
        String longest = DynamoSignals.REVOKED.substring(0, SignalKey.MAX_LENGTH);
        world.signals().revokeUrl("run-1", "tok-a", "ops:ana");

        SignalSent first = world.signals().send("run-1", "tick", payload("one"), "revoked-url:tok-a");
        SignalSent again = world.signals().send("run-1", "tick", payload("two"), "revoked-url:tok-a");
        world.signals().send("run-1", "tick", payload("three"), "revoked-url:tok-b");
        world.signals().send("run-1", "tick", payload("four"), longest);
        world.signals().revokeUrl("run-1", "tok-b", null);

        assertThat(first.duplicate()).isFalse();
        assertThat(again.duplicate()).isTrue();
        assertThat(again.id()).isEqualTo(first.id());
        assertThat(world.signals()
                        .send("run-1", "tick", payload("five"), longest)
                        .duplicate())
                .isTrue();
        assertThat(world.signals().pending("run-1"))
                .extracting(PendingSignal::payload)
                .containsExactly(payload("one"), payload("three"), payload("four"));
        assertThat(world.signals().revokedUrls("run-1"))
                .extracting(RevokedUrl::tokenId, RevokedUrl::actor)
                .containsExactly(tuple("tok-a", "ops:ana"), tuple("tok-b", null));
    }

    @Test
    void aRunsRevocationsStayWithItWhenItsSignalsAreCarriedToItsSuccessor() {
        create("run-1");
        world.signals().send("run-1", "tick", payload("one"), "k-1");
        world.signals().revokeUrl("run-1", "tok-a", null);

        assertThat(world.eventLog().append(List.of(end("run-1"))).getFirst().appended())
                .isTrue();

        assertThat(world.signals().pending("run-2"))
                .extracting(PendingSignal::payload)
                .containsExactly(payload("one"));
        assertThat(world.signals()
                        .send("run-2", "tick", payload("again"), "k-1")
                        .duplicate())
                .as("the carried key")
                .isTrue();
        assertThat(world.signals().revokedUrls("run-2"))
                .as("a URL names its run")
                .isEmpty();
        assertThat(world.signals().revokedUrls("run-1"))
                .extracting(RevokedUrl::tokenId)
                .containsExactly("tok-a");
    }

    private Payload payload(String text) {
        return json.encode(text, "a signal");
    }

    private NewRun newRun(String runId) {
        return new NewRun(runId, "revoke.v1", payload(runId), clock.instant(), clock.instant(), null, "default", 0);
    }

    private void create(String runId) {
        world.eventLog().create(newRun(runId));
    }

    /** The run's completion at seq 1, starting run-2 with the run's signals. */
    private Append end(String runId) {
        return new Append(
                        runId,
                        1,
                        List.of(new WorkflowCompleted(runId, 1, clock.instant(), payload("done"))),
                        RunStatus.COMPLETED)
                .withEffects(List.of(newRun("run-2")), null, null, "run-2");
    }
}
