package io.worldflow.world.aws;

import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.StepScheduled;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.StoredQueue;
import io.worldflow.spi.StoredSchedule;
import io.worldflow.spi.World;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Values beyond DynamoDB's 400 KB item limit, schedule and queue bodies up to it, and appends beyond its 100-item
 * transaction limit.
 */
class PayloadLimitsTest {

    private final AwsWorlds worlds = new AwsWorlds();
    private final World world = worlds.open();

    @AfterEach
    void close() {
        worlds.close();
    }

    private Payload text(int chars) {
        return worlds.codec.encode("é".repeat(chars / 2) + "x".repeat(chars - chars / 2), "a test value");
    }

    private NewRun run(String id, Payload input) {
        return new NewRun(id, "limits.v1", input, worlds.clock.instant(), worlds.clock.instant(), null, "default", 0);
    }

    @Test
    void aPayloadLargerThanAnItemIsSplitAndReadsBackEqual() {
        Payload megabyte = text(1_000_000); // about 1.5 MB of UTF-8
        world.eventLog().create(run("big-1", megabyte));
        StepCompleted big = new StepCompleted("big-1", 1, worlds.clock.instant(), "fetch", 1, megabyte);

        AppendResult result = world.eventLog()
                .append(List.of(new Append("big-1", 1, List.of(big), RunStatus.RUNNING)))
                .getFirst();

        assertThat(result.appended()).isTrue();
        List<Event> events = world.eventLog().read("big-1", 0);
        assertThat(events).hasSize(2);
        assertThat(events.get(1)).isEqualTo(big);
        RunInfo info = world.runQueries().get("big-1").orElseThrow();
        assertThat(info.input()).isEqualTo(megabyte);
        assertThat(world.eventLog().read("big-1", 1)).containsExactly(big);
    }

    @Test
    void anAppendOverTheLimitIsRefusedClearlyAndWritesNothing() {
        world.eventLog().create(run("huge-1", Payload.NULL));
        RunInfo before = world.runQueries().get("huge-1").orElseThrow();
        Payload big = text(1_900_000); // about 2.85 MB of UTF-8 each
        List<Event> huge = List.of(
                new StepCompleted("huge-1", 1, worlds.clock.instant(), "fetch", 1, big),
                new StepCompleted("huge-1", 2, worlds.clock.instant(), "fetch-again", 1, big));

        assertThatThrownBy(() -> world.eventLog().append(List.of(new Append("huge-1", 1, huge, RunStatus.RUNNING))))
                .isInstanceOf(PayloadTooLargeException.class)
                .hasMessageContaining("run huge-1")
                .hasMessageContaining(String.valueOf(3 * 1024 * 1024))
                .satisfies(e ->
                        assertThat(((PayloadTooLargeException) e).isTransient()).isFalse());

        assertThat(world.eventLog().read("huge-1", 0)).hasSize(1);
        assertThat(world.runQueries().get("huge-1")).contains(before);
        assertThat(world.eventLog()
                        .append(List.of(new Append(
                                "huge-1",
                                1,
                                List.of(new StepScheduled("huge-1", 1, worlds.clock.instant(), "next", "next")),
                                RunStatus.RUNNING)))
                        .getFirst()
                        .appended())
                .isTrue();
    }

    @Test
    void aSignalOverTheLimitIsRefusedAndNotKept() {
        world.eventLog().create(run("sig-1", Payload.NULL));

        assertThatThrownBy(() -> world.signals().send("sig-1", "approval", text(300_000)))
                .isInstanceOf(PayloadTooLargeException.class)
                .hasMessageContaining("signal 'approval'");

        assertThat(world.signals().pending("sig-1")).isEmpty();
        long id = world.signals().send("sig-1", "approval", text(100_000));
        assertThat(world.signals().pending("sig-1"))
                .singleElement()
                .satisfies(s -> assertThat(s.id()).isEqualTo(id));
    }

    @Test
    void aScheduleBodyOverTheLimitIsRefusedAndOneAtTheLimitIsStoredWhole() {
        int limit = 384 * 1024;
        Instant now = worlds.clock.instant();
        String longestId = "✓".repeat(StoredSchedule.MAX_ID_LENGTH);

        assertThatThrownBy(() ->
                        world.schedules().create(new StoredSchedule("too-big", "é".repeat(limit / 2 + 1), now, 1, now)))
                .isInstanceOf(PayloadTooLargeException.class)
                .hasMessageContaining("schedule 'too-big'");
        assertThat(world.schedules().get("too-big")).isEmpty();

        // the longest id, three bytes a character, is in the item twice (its key and its place in byWake)
        StoredSchedule atLimit = new StoredSchedule(longestId, "x".repeat(limit), now, 1, now);
        assertThat(world.schedules().create(atLimit)).isTrue();
        assertThat(world.schedules().get(longestId)).contains(atLimit);
        assertThat(world.schedules().due(now, 1)).containsExactly(atLimit);
    }

    @Test
    void aQueueBodyOverTheLimitIsRefusedAndOneAtTheLimitIsStoredWhole() {
        int limit = 384 * 1024;
        Instant now = worlds.clock.instant();
        String longestName = "✓".repeat(StoredQueue.MAX_NAME_LENGTH);

        assertThatThrownBy(() -> world.queues().create(new StoredQueue("too-big", "é".repeat(limit / 2 + 1), 1, now)))
                .isInstanceOf(PayloadTooLargeException.class)
                .hasMessageContaining("queue 'too-big'");
        assertThat(world.queues().get("too-big")).isEmpty();

        StoredQueue atLimit = new StoredQueue(longestName, "x".repeat(limit), 1, now);
        assertThat(world.queues().create(atLimit)).isTrue();
        assertThat(world.queues().get(longestName)).contains(atLimit);
        assertThat(world.queues().list(null, 1)).containsExactly(atLimit);
        StoredQueue tooBig = atLimit.next("x".repeat(limit + 1), now);
        assertThatThrownBy(() -> world.queues().replace(tooBig)).isInstanceOf(PayloadTooLargeException.class);
        assertThat(world.queues().get(longestName)).contains(atLimit);
    }

    @Test
    void anAppendOfMoreEventsThanATransactionHoldsItemsIsAtomic() {
        world.eventLog().create(run("many-1", Payload.NULL));
        List<Event> events = new ArrayList<>();
        for (int i = 1; i <= 750; i++) {
            events.add(new StepScheduled("many-1", i, worlds.clock.instant(), "s" + i, "s"));
        }

        assertThat(world.eventLog()
                        .append(List.of(new Append("many-1", 1, events, RunStatus.RUNNING)))
                        .getFirst())
                .isEqualTo(new AppendResult(true, 751, false));
        AppendResult stale = world.eventLog()
                .append(List.of(new Append("many-1", 1, events, RunStatus.RUNNING)))
                .getFirst();

        assertThat(stale.isConflict()).isTrue();
        assertThat(world.eventLog().read("many-1", 1)).containsExactlyElementsOf(events);
        assertThat(world.runQueries().get("many-1").orElseThrow().logLength()).isEqualTo(751);
    }
}
