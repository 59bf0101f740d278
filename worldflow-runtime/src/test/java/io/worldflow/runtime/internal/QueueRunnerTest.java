package io.worldflow.runtime.internal;

import io.worldflow.QueueSpec;
import io.worldflow.spi.QueueStore;
import io.worldflow.spi.StoredQueue;
import io.worldflow.spi.TaskQueue;
import io.worldflow.spi.TaskQueue.WaitingTurn;
import io.worldflow.spi.World;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rounds of admission against a world that keeps one queue and its waiting turns in memory: what a round stores,
 * moves, and answers about when to look next.
 */
class QueueRunnerTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private static final String Q = "q";
    private static final QueueSpec ONE_A_SECOND = QueueSpec.named(Q).withRateLimit(1, Duration.ofSeconds(1));

    private final Map<String, StoredQueue> queues = new ConcurrentHashMap<>();
    private final List<WaitingTurn> waiting = new ArrayList<>();
    private final List<List<String>> moves = new ArrayList<>();
    private final QueueRunner runner = new QueueRunner(world(), InstantSource.fixed(NOW), false);

    private void store(QueueBody body) {
        queues.put(Q, new StoredQueue(Q, body.encode(), 1, NOW));
    }

    private QueueBody stored() {
        return QueueBody.decode(Q, queues.get(Q).body());
    }

    @Test
    void aRoundThatOnlyGivesAPlaceBackStillAnswersWhenTheRateLimitLetsTheNextRunStart() {
        Instant nextStart = NOW.plusMillis(500);
        store(QueueBody.of(ONE_A_SECOND).with(List.of(new QueueBody.Place("a", null, NOW)), nextStart));
        waiting.add(new WaitingTurn("b", null, 0, NOW.minusSeconds(1)));
        runner.ended("a", Q);

        Instant next = runner.admit(Q);

        assertThat(stored().admitted())
                .as("the ended run's place is given back")
                .isEmpty();
        assertThat(moves).as("the rate limit lets no run start yet").isEmpty();
        assertThat(next)
                .as("a worker with no other round planned must look again when the next run may start")
                .isEqualTo(nextStart);
    }

    @Test
    void aRoundThatAdmitsAnswersWhenTheNextWaitingRunMayStart() {
        store(QueueBody.of(ONE_A_SECOND));
        waiting.add(new WaitingTurn("a", null, 0, NOW.minusSeconds(1)));
        waiting.add(new WaitingTurn("b", null, 0, NOW.minusSeconds(1)));

        Instant next = runner.admit(Q);

        assertThat(moves).containsExactly(List.of("a"));
        assertThat(stored().admitted()).extracting(QueueBody.Place::run).containsExactly("a");
        assertThat(next).isEqualTo(stored().nextStart()).isAfter(NOW);
    }

    @Test
    void aRunDeliveredAgainAfterItsStartPassedTakesTheLimitsNextStartInstead() {
        Instant missed = NOW.minusSeconds(3);
        Instant nextStart = NOW.plusMillis(400);
        store(QueueBody.of(ONE_A_SECOND)
                .with(
                        List.of(new QueueBody.Place("a", null, missed), new QueueBody.Place("b", "k", missed)),
                        nextStart));

        Instant start = runner.redeliveredStart(Q, "b");

        assertThat(start).as("the limit's next start, not at once").isEqualTo(nextStart);
        assertThat(stored().admitted())
                .as("the run keeps its place, at its new start; the others are untouched")
                .containsExactly(new QueueBody.Place("a", null, missed), new QueueBody.Place("b", "k", nextStart));
        assertThat(stored().nextStart())
                .as("the start it takes is taken from the schedule")
                .isEqualTo(nextStart.plusSeconds(1));
    }

    @Test
    void aRunDeliveredAgainWhenTheLimitFellBehindBeginsNowAndTheScheduleGoesOnFromNow() {
        Instant missed = NOW.minusSeconds(30);
        store(QueueBody.of(ONE_A_SECOND).with(List.of(new QueueBody.Place("a", null, missed)), missed.plusSeconds(1)));

        assertThat(runner.redeliveredStart(Q, "a")).as("at once").isNull();
        assertThat(stored().admitted()).containsExactly(new QueueBody.Place("a", null, NOW));
        assertThat(stored().nextStart())
                .as("one interval after the slack a late start may catch up, not the starts missed meanwhile")
                .isEqualTo(NOW.minus(Admission.SLACK).plusSeconds(1));
    }

    @Test
    void aRunDeliveredAgainBeforeItsStartKeepsItAndChangesNothing() {
        Instant ahead = NOW.plusMillis(300);
        QueueBody body =
                QueueBody.of(ONE_A_SECOND).with(List.of(new QueueBody.Place("a", null, ahead)), ahead.plusSeconds(1));
        store(body);

        assertThat(runner.redeliveredStart(Q, "a")).isEqualTo(ahead);
        assertThat(stored()).isEqualTo(body);
    }

    @Test
    void aRunDeliveredAgainBeginsAtOnceWithoutARateLimitOrAPlace() {
        Instant missed = NOW.minusSeconds(3);
        QueueBody unlimited = QueueBody.of(QueueSpec.named(Q).withConcurrency(2))
                .with(List.of(new QueueBody.Place("a", null, missed)), null);
        store(unlimited);
        assertThat(runner.redeliveredStart(Q, "a")).as("no rate limit").isNull();
        assertThat(stored()).isEqualTo(unlimited);

        QueueBody other = QueueBody.of(ONE_A_SECOND).with(List.of(), NOW.plusSeconds(1));
        queues.clear();
        QueueRunner fresh = new QueueRunner(world(), InstantSource.fixed(NOW), false);
        store(other);
        assertThat(fresh.redeliveredStart(Q, "a")).as("no place held for it").isNull();
        assertThat(stored()).isEqualTo(other);
        assertThat(fresh.redeliveredStart("unknown", "a")).as("no such queue").isNull();
    }

    @Test
    void admittedRunsReachTheirQueueThroughTheMoverOfTheProcess() {
        store(QueueBody.of(QueueSpec.named(Q).withConcurrency(2)));
        waiting.add(new WaitingTurn("a", null, 0, NOW.minusSeconds(1)));
        waiting.add(new WaitingTurn("b", null, 0, NOW.minusSeconds(1)));
        List<String> movedHere = new ArrayList<>();
        runner.movedBy(
                (runIds, from, to, at, later) -> {
                    assertThat(from).isEqualTo(QueueRunner.waitingQueue(Q));
                    assertThat(to).isEqualTo(Q);
                    assertThat(at).isEqualTo(NOW);
                    assertThat(later).isEmpty();
                    movedHere.addAll(runIds);
                },
                () -> 10);

        assertThat(runner.admit(Q)).as("no rate limit: nothing to wait for").isNull();

        assertThat(movedHere).containsExactly("a", "b");
        assertThat(moves).as("not moved by the world's plain move").isEmpty();
    }

    @Test
    void aWorkerWithRoomIsGivenRunsAheadOfTheirStartsWithTheirStarts() {
        store(QueueBody.of(QueueSpec.named(Q).withRateLimit(100, Duration.ofSeconds(1))));
        for (int i = 0; i < 50; i++) {
            waiting.add(new WaitingTurn("r" + i, null, 0, NOW.minusSeconds(1)));
        }
        List<String> movedHere = new ArrayList<>();
        Map<String, Instant> starts = new ConcurrentHashMap<>();
        runner.movedBy(
                (runIds, from, to, at, later) -> {
                    movedHere.addAll(runIds);
                    starts.putAll(later);
                },
                () -> 100);

        Instant next = runner.admit(Q);

        // 100 a second: one per 10 ms; the slack's starts now, then those of the horizon ahead
        int now = (int) (Admission.SLACK.toMillis() / 10) + 1;
        int ahead = (int) (QueueRunner.AHEAD.toMillis() / 10);
        assertThat(movedHere).hasSize(now + ahead);
        assertThat(starts).hasSize(ahead).containsEntry("r" + now, NOW.plusMillis(5));
        assertThat(stored().admitted()).hasSize(now + ahead);
        assertThat(next)
                .as("the next round when a quarter of the horizon has passed")
                .isEqualTo(stored().nextStart()
                        .minus(QueueRunner.AHEAD.multipliedBy(3).dividedBy(4)));
    }

    @Test
    void aRunsEndCallsForARoundAtOnceOnlyWhereItsPlaceMayHoldARunBack() {
        java.util.concurrent.atomic.AtomicInteger pokes = new java.util.concurrent.atomic.AtomicInteger();
        runner.admittedBy(pokes::incrementAndGet);
        List<QueueBody.Place> places =
                List.of(new QueueBody.Place("plain", null, NOW), new QueueBody.Place("keyed", "customer-7", NOW));
        store(QueueBody.of(ONE_A_SECOND).with(places, null));
        runner.spec(Q); // read as a worker's rounds read it

        runner.ended("plain", Q);
        assertThat(pokes)
                .as("a rate limit alone: the limit's own rounds give the place back")
                .hasValue(0);
        runner.ended("keyed", Q);
        assertThat(pokes).as("the key's next run waits for this place").hasValue(1);
        runner.ended("unknown-here", Q);
        assertThat(pokes).as("a place not known here may be keyed").hasValue(2);

        store(QueueBody.of(ONE_A_SECOND.withConcurrency(5)).with(places, null));
        runner.spec(Q);
        runner.ended("plain", Q);
        assertThat(pokes)
                .as("a concurrency limit: the place may let a waiting run in")
                .hasValue(3);

        Instant next = runner.admit(Q);
        assertThat(stored().admitted())
                .as("the round that comes gives every ended run's place back")
                .isEmpty();
        assertThat(next).isNull();
    }

    /** A world of a queue store and the waiting turns alone; anything else it is asked is a failure of the test. */
    private World world() {
        QueueStore store = new QueueStore() {
            @Override
            public boolean create(StoredQueue queue) {
                return queues.putIfAbsent(queue.name(), queue) == null;
            }

            @Override
            public boolean replace(StoredQueue queue) {
                StoredQueue now = queues.get(queue.name());
                return now != null && now.version() == queue.version() - 1 && queues.replace(queue.name(), now, queue);
            }

            @Override
            public boolean delete(String name) {
                return queues.remove(name) != null;
            }

            @Override
            public Optional<StoredQueue> get(String name) {
                return Optional.ofNullable(queues.get(name));
            }

            @Override
            public List<StoredQueue> list(String afterName, int limit) {
                throw new UnsupportedOperationException();
            }
        };
        TaskQueue tasks = (TaskQueue) Proxy.newProxyInstance(
                TaskQueue.class.getClassLoader(), new Class<?>[] {TaskQueue.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "waiting" -> {
                            return waiting.stream().limit((int) args[1]).toList();
                        }
                        case "move" -> {
                            @SuppressWarnings("unchecked")
                            List<String> ids = List.copyOf((Collection<String>) args[0]);
                            moves.add(ids);
                            return Set.copyOf(ids);
                        }
                        default -> throw new UnsupportedOperationException(method.getName());
                    }
                });
        return (World) Proxy.newProxyInstance(
                World.class.getClassLoader(),
                new Class<?>[] {World.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "queues" -> store;
                    case "taskQueue" -> tasks;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
