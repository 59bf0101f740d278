package io.worldflow.world.aws;

import io.worldflow.Payload;
import io.worldflow.RunStatus;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.PendingSignal;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldContext;
import io.worldflow.world.aws.internal.AwsWorld;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Signals carried from a run that ends to its successor, at the moments the conformance kit cannot reach: a signal
 * numbered while the ending append is in flight, and a carry whose copies the appender could not write.
 */
class CarrySignalsTest {

    private final AwsWorlds worlds = new AwsWorlds();
    /** Another process on the same tables, which the interceptors leave alone. */
    private final World other = worlds.open();

    private AwsWorld world;

    @AfterEach
    void close() {
        if (world != null) {
            world.close();
        }
        worlds.close();
    }

    @Test
    void aSignalNumberedWhileTheRunEndsIsCarriedWithAnIdTheSuccessorDoesNotGiveAgain() {
        Once sendLate = new Once(request -> true, () -> other.signals().send("run-1", "tick", payload("late")));
        world = open(sendLate);
        world.eventLog().create(newRun("run-1"));
        other.signals().send("run-1", "tick", payload("early"));
        sendLate.arm();

        AppendResult result = world.eventLog().append(List.of(end("run-1"))).getFirst();

        assertThat(result.appended()).isTrue();
        assertThat(sendLate.fired).as("a signal was sent during the append").isTrue();
        other.signals().send("run-2", "tick", payload("after"));
        assertThat(other.signals().pending("run-2"))
                .extracting(PendingSignal::payload)
                .containsExactly(payload("early"), payload("late"), payload("after"));
    }

    @Test
    void aSignalNumberedWhileARunThatNeverHadOneEndsIsCarried() {
        Once sendFirst = new Once(request -> true, () -> other.signals().send("run-1", "tick", payload("first")));
        world = open(sendFirst);
        world.eventLog().create(newRun("run-1"));
        sendFirst.arm();

        AppendResult result = world.eventLog().append(List.of(end("run-1"))).getFirst();

        assertThat(result.appended()).isTrue();
        assertThat(sendFirst.fired).isTrue();
        assertThat(other.signals().pending("run-2"))
                .extracting(PendingSignal::payload)
                .containsExactly(payload("first"));
    }

    @Test
    void aCarryTheAppenderCouldNotCopyIsCopiedByTheSuccessorsNextReader() {
        // the copies go in transactions that begin with a check of the successor's item
        Once failCopy = new Once(request -> request.transactItems().getFirst().conditionCheck() != null, () -> {
            throw SdkClientException.create("connection reset (injected)");
        });
        world = open(failCopy);
        world.eventLog().create(newRun("run-1"));
        other.signals().send("run-1", "tick", payload("one"), "k-1");
        other.signals().send("run-1", "tick", payload("two"));
        failCopy.arm();

        AppendResult result = world.eventLog().append(List.of(end("run-1"))).getFirst();

        assertThat(result.appended())
                .as("the append committed before the copies")
                .isTrue();
        assertThat(failCopy.fired).isTrue();
        assertThat(other.signals().pending("run-2"))
                .extracting(PendingSignal::runId, PendingSignal::payload)
                .containsExactly(tuple("run-2", payload("one")), tuple("run-2", payload("two")));
        assertThat(other.signals().pending("run-1")).isEmpty();
        assertThat(other.signals()
                        .send("run-2", "tick", payload("again"), "k-1")
                        .duplicate())
                .as("the carried key")
                .isTrue();
    }

    private AwsWorld open(ExecutionInterceptor interceptor) {
        return AwsWorld.open(
                new WorldContext(worlds.config(), worlds.clock, worlds.codec.eventCodec()), List.of(interceptor));
    }

    private Payload payload(String text) {
        return worlds.codec.encode(text, "a signal");
    }

    private NewRun newRun(String runId) {
        return new NewRun(
                runId, "carry.v1", payload(runId), worlds.clock.instant(), worlds.clock.instant(), null, "default", 0);
    }

    /** run-1's completion at seq 1, starting run-2 with run-1's signals. */
    private Append end(String runId) {
        return new Append(
                        runId,
                        1,
                        List.of(new WorkflowCompleted(runId, 1, worlds.clock.instant(), payload("done"))),
                        RunStatus.COMPLETED)
                .withEffects(List.of(newRun("run-2")), null, null, "run-2");
    }

    /** Does something once, before the first transaction it is armed for and that {@code matches}. */
    static final class Once implements ExecutionInterceptor {
        private final Predicate<TransactWriteItemsRequest> matches;
        private final Runnable action;
        private final AtomicBoolean armed = new AtomicBoolean();
        volatile boolean fired;

        Once(Predicate<TransactWriteItemsRequest> matches, Runnable action) {
            this.matches = matches;
            this.action = action;
        }

        void arm() {
            armed.set(true);
        }

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if (context.request() instanceof TransactWriteItemsRequest r
                    && matches.test(r)
                    && armed.compareAndSet(true, false)) {
                fired = true;
                action.run();
            }
        }
    }
}
