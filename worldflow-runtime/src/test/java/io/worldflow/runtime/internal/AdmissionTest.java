package io.worldflow.runtime.internal;

import io.worldflow.QueueSpec;
import io.worldflow.spi.TaskQueue.WaitingTurn;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class AdmissionTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private static final Admission.Ahead NONE = Admission.Ahead.NONE;

    private static WaitingTurn w(String run, String key) {
        return new WaitingTurn(run, key, 0, NOW.minusSeconds(1));
    }

    /** Runs r0 … r99, due, without keys. */
    private static List<WaitingTurn> hundredWaiting() {
        List<WaitingTurn> many = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            many.add(w("r" + i, null));
        }
        return many;
    }

    private static QueueBody body(QueueSpec spec, String... admitted) {
        List<QueueBody.Place> places = new ArrayList<>();
        for (String a : admitted) {
            String[] runAndKey = a.split("/");
            places.add(new QueueBody.Place(runAndKey[0], runAndKey.length > 1 ? runAndKey[1] : null, NOW));
        }
        return QueueBody.of(spec).with(places, null);
    }

    @Test
    void concurrencyAdmitsUpToTheLimitInTheListedOrder() {
        QueueBody b = body(QueueSpec.named("q").withConcurrency(3), "old");

        Admission.Decision d =
                Admission.decide(b, List.of(w("a", null), w("b", null), w("c", null)), Set.of(), NOW, NONE);

        assertThat(d.admit()).containsExactly("a", "b");
        assertThat(d.next().admitted()).extracting(QueueBody.Place::run).containsExactly("old", "a", "b");
        assertThat(d.retryAt()).isNull();
    }

    @Test
    void anEndedRunGivesItsPlaceBack() {
        QueueBody b = body(QueueSpec.named("q").withConcurrency(1), "old");

        Admission.Decision d = Admission.decide(b, List.of(w("a", null), w("b", null)), Set.of("old"), NOW, NONE);

        assertThat(d.admit()).containsExactly("a");
        assertThat(d.next().admitted()).extracting(QueueBody.Place::run).containsExactly("a");
    }

    @Test
    void nothingToDoChangesNothing() {
        QueueBody b = body(QueueSpec.named("q").withConcurrency(1), "old");

        Admission.Decision d = Admission.decide(b, List.of(w("a", null)), Set.of("unknown"), NOW, NONE);

        assertThat(d.admit()).isEmpty();
        assertThat(d.next()).isNull();
    }

    @Test
    void aKeyAtItsLimitIsPassedOverAndSoAreItsLaterRuns() {
        QueueBody b = body(QueueSpec.named("q"), "k1-old/k1");

        Admission.Decision d = Admission.decide(
                b, List.of(w("k1-a", "k1"), w("k2-a", "k2"), w("k2-b", "k2"), w("free", null)), Set.of(), NOW, NONE);

        assertThat(d.admit()).containsExactly("k2-a", "free");
    }

    @Test
    void aKeysLaterRunDoesNotOvertakeOneHeldBackByTheConcurrency() {
        QueueBody b = body(QueueSpec.named("q").withConcurrency(1).withKeyConcurrency(2));

        Admission.Decision first = Admission.decide(b, List.of(w("k-a", "k"), w("k-b", "k")), Set.of(), NOW, NONE);

        assertThat(first.admit()).containsExactly("k-a");
    }

    @Test
    void aRunWhoseStartTimeHasNotComeIsPassedOver() {
        QueueBody b = body(QueueSpec.named("q").withConcurrency(5));
        WaitingTurn later = new WaitingTurn("later", null, 9, NOW.plusSeconds(1));

        assertThat(Admission.decide(b, List.of(later, w("now", null)), Set.of(), NOW, NONE)
                        .admit())
                .containsExactly("now");
    }

    @Test
    void anAdmittedRunStillWaitingIsMovedAgainWithoutTakingASecondPlace() {
        QueueBody b = body(QueueSpec.named("q").withConcurrency(1), "a");

        Admission.Decision d = Admission.decide(b, List.of(w("a", null), w("b", null)), Set.of(), NOW, NONE);

        assertThat(d.admit()).containsExactly("a");
        assertThat(d.next()).isNull();
    }

    @Test
    void theRateLimitAdmitsOnePerIntervalAndSaysWhenTheNextMayStart() {
        QueueBody b = body(QueueSpec.named("q").withRateLimit(1, Duration.ofSeconds(10)));
        List<WaitingTurn> waiting = List.of(w("a", null), w("b", null));

        Admission.Decision first = Admission.decide(b, waiting, Set.of(), NOW, NONE);
        assertThat(first.admit()).containsExactly("a");
        assertThat(first.retryAt()).isEqualTo(NOW.plusSeconds(10).minus(Admission.SLACK));

        Admission.Decision early =
                Admission.decide(first.next(), List.of(w("b", null)), Set.of(), NOW.plusSeconds(5), NONE);
        assertThat(early.admit()).isEmpty();
        assertThat(early.retryAt()).isEqualTo(first.retryAt());

        Admission.Decision onTime =
                Admission.decide(first.next(), List.of(w("b", null)), Set.of(), first.retryAt(), NONE);
        assertThat(onTime.admit()).containsExactly("b");
    }

    @Test
    void roomIsTheFreePlacesAndTheStartsTheRateAllowsNow() {
        QueueBody full = body(QueueSpec.named("q").withConcurrency(2), "a", "b");
        assertThat(Admission.room(full, Set.of(), NOW, NONE)).isZero();
        assertThat(Admission.room(full, Set.of("a"), NOW, NONE))
                .as("an ended run's place")
                .isEqualTo(1);
        assertThat(Admission.room(body(QueueSpec.named("q")), Set.of(), NOW, NONE))
                .isEqualTo(QueueSpec.MAX_CONCURRENCY);

        QueueBody metered = body(QueueSpec.named("q").withRateLimit(1, Duration.ofSeconds(10)));
        assertThat(Admission.room(metered, Set.of(), NOW, NONE)).isEqualTo(1);
        QueueBody afterOne = metered.with(List.of(), NOW.plusSeconds(10));
        assertThat(Admission.room(afterOne, Set.of(), NOW, NONE)).isZero();
        assertThat(Admission.nextStart(afterOne, NOW, NONE)).isEqualTo(NOW.plusSeconds(10));
        assertThat(Admission.room(afterOne, Set.of(), NOW.plusSeconds(10), NONE))
                .isEqualTo(1);
        assertThat(Admission.nextStart(metered, NOW, NONE)).isNull();
    }

    @Test
    void aRateLimitedQueueThatFellALittleBehindCatchesUpButNotMore() {
        // 200 per second: one every 5 ms; a round 20 ms late may start the runs it owes, a round after an idle second
        // starts no more than the slack's worth
        QueueBody b = body(QueueSpec.named("q").withRateLimit(200, Duration.ofSeconds(1)));
        List<WaitingTurn> many = hundredWaiting();

        Admission.Decision burst = Admission.decide(b, many, Set.of(), NOW, NONE);

        assertThat(burst.admit()).hasSize((int) (Admission.SLACK.toMillis() / 5) + 1);
    }

    @Test
    void aWorkerWithRoomAdmitsRunsAheadEachAtItsOwnStartAndLooksAgainAQuarterOfAHorizonLater() {
        QueueBody b = body(QueueSpec.named("q").withRateLimit(200, Duration.ofSeconds(1)));
        List<WaitingTurn> many = hundredWaiting();

        Admission.Decision d =
                Admission.decide(b, many, Set.of(), NOW, new Admission.Ahead(Duration.ofMillis(200), 100));

        // the slack's starts now (25 ms at one per 5 ms, and the one due now), then one per 5 ms up to 200 ms ahead
        int now = (int) (Admission.SLACK.toMillis() / 5) + 1;
        assertThat(d.admit()).hasSize(now + 40);
        assertThat(d.later()).hasSize(40);
        for (int k = 1; k <= 40; k++) {
            String run = "r" + (now + k - 1);
            assertThat(d.later()).containsEntry(run, NOW.plusMillis(5L * k));
        }
        assertThat(d.next().admitted())
                .as("each place records when its run starts")
                .filteredOn(p -> p.run().equals("r" + (now + 39)))
                .extracting(QueueBody.Place::at)
                .containsExactly(NOW.plusMillis(200));
        assertThat(d.next().nextStart()).isEqualTo(NOW.plusMillis(205));
        assertThat(d.retryAt()).isEqualTo(NOW.plusMillis(55));
    }

    @Test
    void runsAreAdmittedAheadOnlyUpToTheRoomOfTheWorkerThatHoldsThem() {
        QueueBody b = body(QueueSpec.named("q").withRateLimit(200, Duration.ofSeconds(1)));
        List<WaitingTurn> many = hundredWaiting();

        Admission.Decision d = Admission.decide(b, many, Set.of(), NOW, new Admission.Ahead(Duration.ofMillis(200), 3));

        int now = (int) (Admission.SLACK.toMillis() / 5) + 1;
        assertThat(d.admit()).hasSize(now + 3);
        assertThat(d.later()).hasSize(3);
        assertThat(d.retryAt())
                .as("no room ahead: look again when the next run may start")
                .isEqualTo(NOW.plusMillis(20));
        assertThat(Admission.decide(b, many, Set.of(), NOW, new Admission.Ahead(Duration.ofMillis(200), 0))
                        .later())
                .as("no room at all: nothing ahead")
                .isEmpty();
    }

    @Test
    void aRunAdmittedAheadWhoseMoveDidNotHappenKeepsItsStart() {
        QueueBody b = QueueBody.of(QueueSpec.named("q").withRateLimit(200, Duration.ofSeconds(1)))
                .with(List.of(new QueueBody.Place("a", null, NOW.plusMillis(50))), NOW.plusMillis(300));

        Admission.Decision d = Admission.decide(
                b, List.of(w("a", null)), Set.of(), NOW, new Admission.Ahead(Duration.ofMillis(200), 5));

        assertThat(d.admit()).containsExactly("a");
        assertThat(d.later()).containsExactly(Map.entry("a", NOW.plusMillis(50)));
        assertThat(d.next()).as("no new place").isNull();
    }

    @Test
    void roomAndTheNextLookReachAheadOnlyWithRoomAhead() {
        QueueBody afterOne = body(QueueSpec.named("q").withRateLimit(1, Duration.ofSeconds(10)))
                .with(List.of(), NOW.plusSeconds(10));
        Admission.Ahead ahead = new Admission.Ahead(Duration.ofMillis(200), 5);

        assertThat(Admission.nextStart(afterOne, NOW, ahead))
                .isEqualTo(NOW.plusSeconds(10).minusMillis(150));
        assertThat(Admission.room(afterOne, Set.of(), NOW.plusSeconds(10).minusMillis(150), ahead))
                .isEqualTo(1);
        assertThat(Admission.room(afterOne, Set.of(), NOW.plusSeconds(10).minusMillis(250), ahead))
                .isZero();
        assertThat(Admission.nextStart(afterOne, NOW, new Admission.Ahead(Duration.ofMillis(200), 0)))
                .isEqualTo(NOW.plusSeconds(10));
    }
}
