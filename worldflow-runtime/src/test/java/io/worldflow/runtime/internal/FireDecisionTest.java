package io.worldflow.runtime.internal;

import io.worldflow.CatchUpPolicy;
import io.worldflow.OverlapPolicy;
import io.worldflow.Payload;
import io.worldflow.ScheduleSpec;
import io.worldflow.runtime.internal.ScheduleBody.Action;
import io.worldflow.runtime.internal.ScheduleBody.Action.Kind;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** Which fire times start runs: the catch-up policy for those missed, the overlap policy while a run goes on. */
class FireDecisionTest {

    private static final Instant T0 = Instant.parse("2026-06-01T10:00:00Z");

    /** Every minute, created at T0, its first fire time T0 + 1 min. */
    private static ScheduleBody body(ScheduleSpec spec) {
        ScheduleBody b = ScheduleBody.of(spec, Payload.NULL, T0);
        return b.with(false, T0.plusSeconds(60), null, null, null, List.of());
    }

    private static ScheduleSpec minutely() {
        return ScheduleSpec.cron("s", "0 * * * * ?", "wf", null);
    }

    private static FireDecision.Outcome decide(ScheduleSpec spec, ScheduleBody b, Instant now, Set<String> running) {
        return FireDecision.decide("s", b, new FireTimes(spec, T0), now, running::contains);
    }

    @Test
    void aFireTimeOnTimeStartsItsRunAndTheScheduleMovesToTheNext() {
        ScheduleSpec spec = minutely();
        Instant now = T0.plusSeconds(60).plusMillis(3);

        FireDecision.Outcome o = decide(spec, body(spec), now, Set.of());

        assertThat(o.body().pending())
                .extracting(Action::kind, Action::runId)
                .containsExactly(tuple(Kind.START, "s@2026-06-01T10:01:00Z"));
        assertThat(o.body().nextFireAt()).isEqualTo(T0.plusSeconds(120));
        assertThat(o.body().lastRunId()).isEqualTo("s@2026-06-01T10:01:00Z");
        assertThat(o.wakeAt()).as("actions pending: due again at once").isEqualTo(now);
        assertThat(FireDecision.wake(o.body().withPending(List.of()), now))
                .as("a look a little before the next fire time")
                .isEqualTo(T0.plusSeconds(120).minus(FireDecision.LEAD));
    }

    @Test
    void notYetDueStartsNothing() {
        ScheduleSpec spec = minutely();
        FireDecision.Outcome o = decide(spec, body(spec), T0.plusSeconds(59), Set.of());

        assertThat(o.body().pending()).isEmpty();
        assertThat(o.wakeAt()).isEqualTo(T0.plusSeconds(60).minus(FireDecision.LEAD));
    }

    @Test
    void aFireTimeWithinTheLeadIsDecidedAheadItsRunDueAtTheFireTime() {
        ScheduleSpec spec = minutely();
        Instant now = T0.plusSeconds(60).minus(FireDecision.LEAD).plusMillis(1);

        FireDecision.Outcome o = decide(spec, body(spec), now, Set.of());

        assertThat(o.body().pending())
                .extracting(Action::kind, Action::fireAt)
                .containsExactly(tuple(Kind.START, T0.plusSeconds(60)));
        assertThat(o.body().nextFireAt()).isEqualTo(T0.plusSeconds(120));
    }

    @Test
    void whileAPreviousRunGoesOnAFireTimeIsDecidedAtItsTimeNotAhead() {
        ScheduleSpec spec = minutely(); // SKIP: what happens depends on whether the previous run ends in time
        ScheduleBody b = body(spec).with(false, T0.plusSeconds(60), T0, "s@" + T0, null, List.of());
        Instant now = T0.plusSeconds(60).minus(FireDecision.LEAD).plusMillis(1);

        FireDecision.Outcome early = decide(spec, b, now, Set.of("s@" + T0));
        assertThat(early.body().pending()).isEmpty();
        assertThat(early.wakeAt()).isEqualTo(T0.plusSeconds(60));

        FireDecision.Outcome ended = decide(spec, b, T0.plusSeconds(60), Set.of());
        assertThat(ended.body().pending()).extracting(Action::fireAt).containsExactly(T0.plusSeconds(60));

        ScheduleSpec all = minutely().withOverlap(OverlapPolicy.ALLOW_ALL);
        ScheduleBody ballAll = body(all).with(false, T0.plusSeconds(60), T0, "s@" + T0, null, List.of());
        assertThat(decide(all, ballAll, now, Set.of("s@" + T0)).body().pending())
                .as("allow-all does not depend on the previous run: decided ahead")
                .extracting(Action::fireAt)
                .containsExactly(T0.plusSeconds(60));
    }

    @Test
    void missedFireTimesStartWhatTheCatchUpPolicySays() {
        Instant now = T0.plus(Duration.ofMinutes(60)).plusSeconds(30); // 60 fire times due, the last on time

        ScheduleSpec all =
                minutely().withOverlap(OverlapPolicy.ALLOW_ALL).withCatchUp(CatchUpPolicy.ALL, Duration.ofHours(1));
        assertThat(decide(all, body(all), now, Set.of()).body().pending()).hasSize(60);

        ScheduleSpec latest = minutely().withOverlap(OverlapPolicy.ALLOW_ALL);
        assertThat(decide(latest, body(latest), now, Set.of()).body().pending())
                .extracting(Action::fireAt)
                .as("the latest one alone, here the one on time")
                .containsExactly(T0.plus(Duration.ofMinutes(60)));
        ScheduleSpec hourly = ScheduleSpec.cron("s", "0 0 * * * ?", "wf", null);
        ScheduleBody hours = ScheduleBody.of(hourly, Payload.NULL, T0)
                .with(false, T0.plus(Duration.ofHours(1)), null, null, null, List.of());
        assertThat(decide(hourly, hours, T0.plus(Duration.ofMinutes(210)), Set.of())
                        .body()
                        .pending())
                .extracting(Action::fireAt)
                .as("the latest one alone, missed too")
                .containsExactly(T0.plus(Duration.ofHours(3)));

        ScheduleSpec none =
                minutely().withOverlap(OverlapPolicy.ALLOW_ALL).withCatchUp(CatchUpPolicy.NONE, Duration.ofDays(1));
        FireDecision.Outcome o = decide(none, body(none), now, Set.of());
        assertThat(o.body().pending()).extracting(Action::fireAt).containsExactly(T0.plus(Duration.ofMinutes(60)));
        assertThat(o.body().nextFireAt()).isEqualTo(T0.plus(Duration.ofMinutes(61)));
    }

    @Test
    void missedFireTimesOlderThanTheWindowStartNothing() {
        ScheduleSpec spec =
                minutely().withOverlap(OverlapPolicy.ALLOW_ALL).withCatchUp(CatchUpPolicy.ALL, Duration.ofMinutes(10));
        Instant now = T0.plus(Duration.ofMinutes(60)).plusSeconds(30);

        assertThat(decide(spec, body(spec), now, Set.of()).body().pending())
                .extracting(Action::fireAt)
                .first()
                .isEqualTo(T0.plus(Duration.ofMinutes(51)));
    }

    @Test
    void whileThePreviousRunGoesOnTheOverlapPolicyDecides() {
        Instant now = T0.plusSeconds(60);
        String previous = "s@2026-06-01T09:59:00Z";
        for (OverlapPolicy policy : OverlapPolicy.values()) {
            ScheduleSpec spec = minutely().withOverlap(policy);
            ScheduleBody b = body(spec).with(false, T0.plusSeconds(60), T0.minusSeconds(60), previous, null, List.of());

            FireDecision.Outcome o = decide(spec, b, now, Set.of(previous));

            List<Kind> kinds = o.body().pending().stream().map(Action::kind).toList();
            switch (policy) {
                case SKIP -> assertThat(kinds).as("skip").isEmpty();
                case BUFFER_ONE -> {
                    assertThat(kinds).as("buffer one").isEmpty();
                    assertThat(o.body().buffered()).isEqualTo(T0.plusSeconds(60));
                    assertThat(o.wakeAt()).as("looks again soon").isEqualTo(now.plus(FireDecision.BUFFER_CHECK));
                }
                case ALLOW_ALL -> assertThat(kinds).as("allow all").containsExactly(Kind.START);
                case CANCEL_PREVIOUS ->
                    assertThat(o.body().pending())
                            .extracting(Action::kind, Action::runId)
                            .containsExactly(tuple(Kind.CANCEL, previous), tuple(Kind.START, "s@2026-06-01T10:01:00Z"));
                case TERMINATE_PREVIOUS -> assertThat(kinds).containsExactly(Kind.TERMINATE, Kind.START);
            }
            assertThat(o.body().nextFireAt()).isEqualTo(T0.plusSeconds(120));
        }
    }

    @Test
    void aBufferedFireTimeStartsWhenThePreviousRunHasEnded() {
        ScheduleSpec spec = minutely().withOverlap(OverlapPolicy.BUFFER_ONE);
        String previous = "s@2026-06-01T09:59:00Z";
        ScheduleBody b = body(spec)
                .with(false, T0.plusSeconds(120), T0.minusSeconds(60), previous, T0.plusSeconds(60), List.of());
        Instant now = T0.plusSeconds(75);

        assertThat(decide(spec, b, now, Set.of(previous)).body().pending())
                .as("still running")
                .isEmpty();

        FireDecision.Outcome o = decide(spec, b, now, Set.of());
        assertThat(o.body().pending())
                .extracting(Action::kind, Action::fireAt)
                .containsExactly(tuple(Kind.START, T0.plusSeconds(60)));
        assertThat(o.body().buffered()).isNull();
    }

    @Test
    void fireTimesPastByLessThanAMinuteButMissedAllTheSameAreCaughtUpByThePolicyNotAllStarted() {
        // every 5 s, a worker away for 50 s: ten fire times due, each less than a minute past
        ScheduleSpec every5 = ScheduleSpec.every("s", Duration.ofSeconds(5), "wf", null);
        ScheduleBody b =
                ScheduleBody.of(every5, Payload.NULL, T0).with(false, T0.plusSeconds(5), null, null, null, List.of());
        Instant now = T0.plusSeconds(52);

        assertThat(decide(every5, b, now, Set.of()).body().pending())
                .as("LATEST, the default: the latest one alone")
                .extracting(Action::fireAt)
                .containsExactly(T0.plusSeconds(50));
        ScheduleSpec cancel =
                every5.withOverlap(OverlapPolicy.CANCEL_PREVIOUS).withCatchUp(CatchUpPolicy.ALL, Duration.ofHours(1));
        assertThat(decide(
                                cancel,
                                ScheduleBody.of(cancel, Payload.NULL, T0)
                                        .with(false, T0.plusSeconds(5), T0, "s@" + T0, null, List.of()),
                                now,
                                Set.of("s@" + T0))
                        .body()
                        .pending())
                .as("each would cancel the one before it at once: the previous run canceled, the newest started")
                .extracting(Action::kind, Action::fireAt)
                .containsExactly(tuple(Kind.CANCEL, T0.plusSeconds(50)), tuple(Kind.START, T0.plusSeconds(50)));
    }

    @Test
    void withCatchUpAllAndNoOverlapEveryMissedFireTimeStartsInTurnAsTheRunBeforeItEnds() {
        ScheduleSpec spec = minutely().withCatchUp(CatchUpPolicy.ALL, Duration.ofHours(1)); // SKIP, the default
        Instant now = T0.plus(Duration.ofMinutes(3)).plusSeconds(30); // 10:01, 10:02 and 10:03 due

        FireDecision.Outcome first = decide(spec, body(spec), now, Set.of());
        assertThat(first.body().pending()).extracting(Action::fireAt).containsExactly(T0.plusSeconds(60));
        assertThat(first.body().nextFireAt()).as("the next one waits its turn").isEqualTo(T0.plusSeconds(120));
        ScheduleBody started = first.body().withPending(List.of());
        assertThat(FireDecision.wake(started, now))
                .as("looks again soon")
                .isEqualTo(now.plus(FireDecision.BUFFER_CHECK));

        String running = "s@2026-06-01T10:01:00Z";
        FireDecision.Outcome still = decide(spec, started, now.plusSeconds(1), Set.of(running));
        assertThat(still.body().pending()).as("the run before it goes on").isEmpty();
        assertThat(still.body().nextFireAt()).isEqualTo(T0.plusSeconds(120));
        assertThat(still.wakeAt()).isEqualTo(now.plusSeconds(1).plus(FireDecision.BUFFER_CHECK));

        FireDecision.Outcome second = decide(spec, started, now.plusSeconds(2), Set.of());
        assertThat(second.body().pending()).extracting(Action::fireAt).containsExactly(T0.plusSeconds(120));
        FireDecision.Outcome third = decide(spec, second.body().withPending(List.of()), now.plusSeconds(3), Set.of());
        assertThat(third.body().pending())
                .as("the one on time too, in its turn")
                .extracting(Action::fireAt)
                .containsExactly(T0.plusSeconds(180));
        assertThat(third.body().nextFireAt()).isEqualTo(T0.plusSeconds(240));
    }

    @Test
    void aPausedScheduleStartsNothingAndWantsNoLook() {
        ScheduleSpec spec = minutely();
        ScheduleBody paused = body(spec).with(true, T0.plusSeconds(60), null, null, null, List.of());

        FireDecision.Outcome o = decide(spec, paused, T0.plus(Duration.ofHours(1)), Set.of());

        assertThat(o.body().pending()).isEmpty();
        assertThat(o.wakeAt()).isNull();
    }
}
