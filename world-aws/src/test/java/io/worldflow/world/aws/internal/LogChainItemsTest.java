package io.worldflow.world.aws.internal;

import io.worldflow.ChainReport;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.StepScheduled;
import io.worldflow.format.LogChain;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.ManualClock;
import io.worldflow.spi.Append;
import io.worldflow.spi.EventCodec;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.StoredLog;
import io.worldflow.spi.StoredRecord;
import io.worldflow.spi.WorldContext;
import io.worldflow.world.aws.Emulators;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.worldflow.world.aws.internal.Attrs.b;
import static io.worldflow.world.aws.internal.Attrs.s;
import static org.assertj.core.api.Assertions.assertThat;

/** The hash chain at the moments the conformance kit cannot reach: runs written before it, and a head that moves. */
class LogChainItemsTest {

    private final JsonCodec json = new JsonCodec();
    private final EventCodec codec = json.eventCodec();
    private final ManualClock clock = ManualClock.start();
    private final String prefix = Emulators.freshPrefix();
    private final Tables tables = Tables.named(prefix);
    private final DynamoDbClient dynamo = Emulators.shared().dynamoClient();
    private final MoveHead moveHead = new MoveHead();
    private final AwsWorld world =
            AwsWorld.open(new WorldContext(Emulators.shared().config(prefix), clock, codec), List.of(moveHead));

    @AfterEach
    void close() {
        world.close();
        dynamo.close();
    }

    private void create(String runId) {
        world.eventLog()
                .create(new NewRun(
                        runId,
                        "chain.v1",
                        json.encode(runId, "input"),
                        clock.instant(),
                        clock.instant(),
                        null,
                        "default",
                        0));
    }

    private Append step(String runId, long seq) {
        return new Append(
                runId, seq, List.of(new StepScheduled(runId, seq, clock.instant(), "s" + seq, "s")), RunStatus.RUNNING);
    }

    private Map<String, AttributeValue> pageKey(String runId, long lastSeq) {
        return Map.of(EventPages.RUN, s(runId), EventPages.KEY, s(EventPages.key(lastSeq, 0)));
    }

    @Test
    void aRunWrittenBeforeTheChainStaysReadableAndChainsFromItsNextRecord() {
        create("old");
        // as a release before the chain left it: no head, and its first record in the first layout without a link
        Event started = world.eventLog().read("old", 0).getFirst();
        String legacyText = codec.encode(started);
        dynamo.updateItem(u -> u.tableName(tables.runs())
                .key(RunItem.key("old"))
                .updateExpression("REMOVE #h")
                .expressionAttributeNames(Map.of("#h", RunItem.HEAD)));
        dynamo.updateItem(u -> u.tableName(tables.events())
                .key(pageKey("old", 0))
                .updateExpression("SET #d = :d REMOVE #l")
                .expressionAttributeNames(Map.of("#d", EventPages.DATA, "#l", EventPages.LINK))
                .expressionAttributeValues(Map.of(":d", b(legacyText.getBytes(StandardCharsets.UTF_8)))));

        assertThat(world.eventLog().append(List.of(step("old", 1))).getFirst().appended())
                .isTrue();

        StoredLog log = world.eventLog().storedLog("old");
        assertThat(log.records()).hasSize(2);
        StoredRecord legacy = log.records().get(0);
        assertThat(legacy.text()).isEqualTo(legacyText);
        assertThat(legacy.link()).isNull();
        StoredRecord next = log.records().get(1);
        assertThat(next.link()).isEqualTo(LogChain.link("old", null, 1, 1, next.text()));
        assertThat(log.head()).isEqualTo(next.link());
        ChainReport report = LogChain.verify(log);
        assertThat(report.intact()).as(report.problem()).isTrue();
        assertThat(report.chainedFrom()).isEqualTo(1);
        assertThat(world.eventLog().read("old", 0)).extracting(Event::seq).containsExactly(0L, 1L);
    }

    @Test
    void anAppendWhoseHeadMovedAfterItWasReadIsLinkedAgainOverTheNewHead() {
        create("raced");
        byte[] moved = LogChain.link("raced", null, 0, 0, "a head written by someone else meanwhile");
        moveHead.arm("raced", moved);

        assertThat(world.eventLog().append(List.of(step("raced", 1))).getFirst().appended())
                .isTrue();

        assertThat(moveHead.fired.get()).isTrue();
        assertThat(moveHead.transactions.get())
                .as("the first write is refused on its head and the append written again")
                .isEqualTo(2);
        StoredLog log = world.eventLog().storedLog("raced");
        StoredRecord appended = log.records().getLast();
        assertThat(appended.link()).isEqualTo(LogChain.link("raced", moved, 1, 1, appended.text()));
        assertThat(log.head()).isEqualTo(appended.link());
        assertThat(log.logLength()).isEqualTo(2);
    }

    /** Once armed: sets the run's head to another link just before the next transaction, and counts transactions. */
    private final class MoveHead implements ExecutionInterceptor {
        private final AtomicBoolean armed = new AtomicBoolean();
        final AtomicBoolean fired = new AtomicBoolean();
        final AtomicInteger transactions = new AtomicInteger();
        private volatile String runId;
        private volatile byte[] head;

        void arm(String runId, byte[] head) {
            this.runId = runId;
            this.head = head;
            armed.set(true);
        }

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if (!(context.request() instanceof TransactWriteItemsRequest) || runId == null) {
                return;
            }
            transactions.incrementAndGet();
            if (armed.compareAndSet(true, false)) {
                fired.set(true);
                dynamo.updateItem(u -> u.tableName(tables.runs())
                        .key(RunItem.key(runId))
                        .updateExpression("SET #h = :h")
                        .expressionAttributeNames(Map.of("#h", RunItem.HEAD))
                        .expressionAttributeValues(Map.of(":h", b(head))));
            }
        }
    }
}
