package io.worldflow.world.postgres;

import io.worldflow.Payload;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.MarkerRecorded;
import io.worldflow.event.StepCompleted;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.Lease;
import io.worldflow.spi.TurnEnd;
import io.worldflow.spi.World;
import io.worldflow.world.jdbc.Micros;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** Group commit on PostgreSQL: one transaction per batch, independent results, no deadlocks between workers. */
class AppendTest extends PgTestSupport {

    private List<Event> markers(String runId, long fromSeq, int count) {
        List<Event> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(new MarkerRecorded(
                    runId,
                    fromSeq + i,
                    clock.instant(),
                    "m" + (fromSeq + i),
                    "now",
                    new Payload("\"" + clock.instant() + "\"", "java.time.Instant")));
        }
        return out;
    }

    private Append markerAppend(String runId, long expectedSeq, int count, RunStatus status) {
        return new Append(runId, expectedSeq, markers(runId, expectedSeq, count), status);
    }

    @Test
    void appendsOfOneRunAtTheSameMomentWithTheSameExpectedSeqGoThroughOnce() throws Exception {
        World world = open(config(freshSchema()));
        int runs = 20;
        int writers = 6;
        for (int i = 0; i < runs; i++) {
            world.eventLog().create(newRun("run-" + i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            for (int round = 1; round <= 3; round++) {
                for (int i = 0; i < runs; i++) {
                    String runId = "run-" + i;
                    long expected = 1 + 2L * (round - 1);
                    CountDownLatch go = new CountDownLatch(1);
                    List<Future<AppendResult>> results = new ArrayList<>();
                    for (int w = 0; w < writers; w++) {
                        results.add(pool.submit(() -> {
                            go.await();
                            // a batch of one run: its update is the check, with no lock taken before it
                            return world.eventLog()
                                    .append(List.of(markerAppend(runId, expected, 2, RunStatus.RUNNING)))
                                    .getFirst();
                        }));
                    }
                    go.countDown();
                    List<AppendResult> got = new ArrayList<>();
                    for (Future<AppendResult> f : results) {
                        got.add(f.get(30, TimeUnit.SECONDS));
                    }
                    assertThat(got)
                            .as(runId + " round " + round)
                            .containsOnlyOnce(new AppendResult(true, expected + 2, false))
                            .filteredOn(r -> !r.appended())
                            .hasSize(writers - 1)
                            .allSatisfy(r -> assertThat(r.logLength()).isEqualTo(expected + 2));
                }
            }
        } finally {
            pool.shutdownNow();
        }
        for (int i = 0; i < runs; i++) {
            List<Event> log = world.eventLog().read("run-" + i, 0);
            assertThat(log).hasSize(7);
            assertThat(world.runQueries().get("run-" + i).orElseThrow().logLength())
                    .isEqualTo(7);
        }
    }

    @Test
    void fiveHundredAppendsCommitInOneTransactionAndAConflictDoesNotAffectTheOthers() throws Exception {
        String schema = freshSchema();
        World world = open(config(schema));
        for (int i = 0; i < 500; i++) {
            world.eventLog().create(newRun("run-" + i));
        }
        List<Append> appends = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            appends.add(markerAppend("run-" + i, i == 250 ? 5 : 1, 3, RunStatus.RUNNING));
        }

        List<AppendResult> results = world.eventLog().append(appends);

        for (int i = 0; i < 500; i++) {
            assertThat(results.get(i))
                    .isEqualTo(i == 250 ? new AppendResult(false, 1, false) : new AppendResult(true, 4, false));
        }
        assertThat(world.runQueries().countByStatus(RunQuery.all()))
                .containsEntry(RunStatus.RUNNING, 499L)
                .containsEntry(RunStatus.PENDING, 1L);
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*), count(DISTINCT xmin::text), "
                        + "count(*) FILTER (WHERE seq = 1 AND last_seq = 3) FROM " + schema
                        + ".wf_event_log WHERE seq > 0")) {
            rs.next();
            assertThat(rs.getLong(1)).as("a row per append").isEqualTo(499);
            assertThat(rs.getLong(3))
                    .as("each holding the append's three events")
                    .isEqualTo(499);
            assertThat(rs.getLong(2))
                    .as("transactions that wrote the batch's events")
                    .isEqualTo(1);
        }
    }

    @Test
    void appendsToTheSameRunInOneBatchApplyInOrder() {
        World world = open(config(freshSchema()));
        world.eventLog().create(newRun("r1"));
        world.eventLog().create(newRun("r2"));

        List<AppendResult> results = world.eventLog()
                .append(List.of(
                        markerAppend("r1", 1, 2, RunStatus.RUNNING),
                        markerAppend("r2", 1, 1, RunStatus.RUNNING),
                        markerAppend("r1", 3, 1, RunStatus.SLEEPING),
                        markerAppend("r1", 3, 1, RunStatus.WAITING),
                        markerAppend("ghost", 1, 1, RunStatus.RUNNING)));

        assertThat(results)
                .containsExactly(
                        new AppendResult(true, 3, false),
                        new AppendResult(true, 2, false),
                        new AppendResult(true, 4, false),
                        new AppendResult(false, 4, false),
                        AppendResult.missing());
        assertThat(world.runQueries().get("r1").orElseThrow().status()).isEqualTo(RunStatus.SLEEPING);
        assertThat(world.eventLog().read("r1", 0)).hasSize(4);
    }

    @Test
    void turnEndsOfABatchAreAllApplied() {
        World world = open(config(freshSchema()));
        int runs = 200;
        for (int i = 0; i < runs; i++) {
            world.eventLog().create(newRun("run-" + i));
        }
        Map<String, Lease> leases = world.taskQueue().lease("w", Set.of(QUEUE), runs, Duration.ofMinutes(1)).stream()
                .collect(Collectors.toMap(Lease::runId, Function.identity()));
        assertThat(leases).hasSize(runs);
        List<Append> appends = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            Instant wake = clock.instant().plusSeconds(10 + i);
            appends.add(new Append(
                    "run-" + i,
                    1,
                    markers("run-" + i, 1, 1),
                    RunStatus.SLEEPING,
                    List.of(),
                    new TurnEnd(leases.get("run-" + i), wake)));
        }

        world.eventLog().append(appends);

        assertThat(world.taskQueue().nextDue(Set.of(QUEUE)))
                .contains(clock.instant().plusSeconds(10));
        clock.advance(Duration.ofSeconds(10 + runs));
        assertThat(world.taskQueue().lease("w", Set.of(QUEUE), runs, Duration.ofMinutes(1)))
                .hasSize(runs)
                .allSatisfy(l -> assertThat(l.deliveries()).isEqualTo(1));
    }

    /**
     * Two worlds (as two worker processes) append batches that touch the same runs in different orders: rows
     * are locked in run id order, so they queue up instead of deadlocking, and every append is accounted for.
     */
    @Test
    void overlappingBatchesFromTwoProcessesNeverDeadlock() throws Exception {
        String schema = freshSchema();
        World a = open(config(schema));
        World b = open(config(schema));
        int runs = 40;
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            ids.add("run-" + i);
            a.eventLog().create(newRun("run-" + i));
        }
        Map<String, AtomicLong> written = new ConcurrentHashMap<>();
        ids.forEach(id -> written.put(id, new AtomicLong()));
        int threads = 6;
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                World world = t % 2 == 0 ? a : b;
                Random random = new Random(t);
                futures.add(pool.submit(() -> {
                    go.await();
                    for (int round = 0; round < 25; round++) {
                        List<String> order = new ArrayList<>(ids);
                        Collections.shuffle(order, random);
                        List<String> batchIds = new ArrayList<>(order.subList(0, 25));
                        List<Append> batch = new ArrayList<>();
                        for (String id : List.copyOf(batchIds)) {
                            long length =
                                    world.runQueries().get(id).orElseThrow().logLength();
                            batch.add(markerAppend(id, length, 1, RunStatus.RUNNING));
                            if (round % 2 == 1 && batch.size() == 1) {
                                // a run twice in one batch: two rounds in one transaction
                                batch.add(markerAppend(id, length + 1, 1, RunStatus.RUNNING));
                                batchIds.add(1, id);
                            }
                        }
                        List<AppendResult> results = world.eventLog().append(batch);
                        for (int i = 0; i < results.size(); i++) {
                            if (results.get(i).appended()) {
                                written.get(batchIds.get(i)).incrementAndGet();
                            }
                        }
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS); // a deadlock would surface here as a WorldException
            }
        } finally {
            pool.shutdownNow();
        }
        for (String id : ids) {
            List<Event> log = a.eventLog().read(id, 0);
            assertThat(log).hasSize((int) (1 + written.get(id).get()));
            for (int i = 0; i < log.size(); i++) {
                assertThat(log.get(i).seq()).isEqualTo(i);
            }
        }
    }

    @Test
    void aTurnRequestedDuringTheLeaseWinsOverTheLaterWakeTimeOfTheAppend() {
        World world = open(config(freshSchema()));
        world.eventLog().create(newRun("r1"));
        Lease lease = world.taskQueue()
                .lease("w", Set.of(QUEUE), 1, Duration.ofMinutes(1))
                .getFirst();
        world.signals().send("r1", "go", Payload.NULL);

        AppendResult result = world.eventLog()
                .append(List.of(new Append(
                        "r1",
                        1,
                        markers("r1", 1, 1),
                        RunStatus.SLEEPING,
                        List.of(),
                        new TurnEnd(lease, clock.instant().plus(Duration.ofHours(1))))))
                .getFirst();

        assertThat(result.appended()).isTrue();
        assertThat(world.taskQueue().lease("w", Set.of(QUEUE), 1, Duration.ofMinutes(1)))
                .extracting(Lease::runId)
                .containsExactly("r1");
    }

    @Test
    void aRunTwiceInOneBatchHasBothAppendsAppliedInOrderInOneTransaction() throws Exception {
        String schema = freshSchema();
        World world = open(config(schema));
        world.eventLog().create(newRun("r1"));
        world.eventLog().create(newRun("r2"));
        Map<String, Lease> leases = world.taskQueue().lease("w", Set.of(QUEUE), 2, Duration.ofMinutes(1)).stream()
                .collect(Collectors.toMap(Lease::runId, Function.identity()));
        Instant wake = clock.instant().plusSeconds(30);

        List<AppendResult> results = world.eventLog()
                .append(List.of(
                        markerAppend("r1", 1, 2, RunStatus.RUNNING),
                        markerAppend("r2", 1, 1, RunStatus.RUNNING),
                        new Append(
                                "r1",
                                3,
                                markers("r1", 3, 1),
                                RunStatus.SLEEPING,
                                List.of(),
                                new TurnEnd(leases.get("r1"), wake))));

        assertThat(results)
                .containsExactly(
                        new AppendResult(true, 3, false),
                        new AppendResult(true, 2, false),
                        new AppendResult(true, 4, false));
        assertThat(world.eventLog().read("r1", 0)).extracting(Event::seq).containsExactly(0L, 1L, 2L, 3L);
        assertThat(world.runQueries().get("r1").orElseThrow().status()).isEqualTo(RunStatus.SLEEPING);
        assertThat(world.runQueries().get("r1").orElseThrow().logLength()).isEqualTo(4);
        assertThat(world.taskQueue().nextDue(Set.of(QUEUE)))
                .as("r2 still leased, r1 due at its wake time")
                .contains(wake);
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT count(*), count(DISTINCT xmin::text) FROM " + schema + ".wf_event_log WHERE seq > 0")) {
            rs.next();
            assertThat(rs.getLong(1)).as("a row per append").isEqualTo(3);
            assertThat(rs.getLong(2))
                    .as("transactions that wrote the batch's events")
                    .isEqualTo(1);
        }
    }

    @Test
    void aLaterAppendOfARunInOneBatchIsCheckedAgainstTheLogAsTheEarlierOneLeftIt() {
        World world = open(config(freshSchema()));
        world.eventLog().create(newRun("r1"));
        world.eventLog().append(List.of(markerAppend("r1", 1, 2, RunStatus.RUNNING)));

        // the first is stale, so the second, which follows it, is refused too, with the log's length
        List<AppendResult> refused = world.eventLog()
                .append(List.of(
                        markerAppend("r1", 1, 1, RunStatus.RUNNING), markerAppend("r1", 2, 1, RunStatus.RUNNING)));

        assertThat(refused).containsExactly(new AppendResult(false, 3, false), new AppendResult(false, 3, false));
        // each append is checked on its own: one that fits the log goes through though the one before it did not
        List<AppendResult> second = world.eventLog()
                .append(List.of(
                        markerAppend("r1", 1, 2, RunStatus.RUNNING), markerAppend("r1", 3, 1, RunStatus.SLEEPING)));

        assertThat(second).containsExactly(new AppendResult(false, 3, false), new AppendResult(true, 4, false));
        assertThat(world.eventLog().read("r1", 0)).extracting(Event::seq).containsExactly(0L, 1L, 2L, 3L);
        assertThat(world.runQueries().get("r1").orElseThrow().status()).isEqualTo(RunStatus.SLEEPING);
    }

    @Test
    void aTurnEndingWithNothingNextIsRemovedUnlessATurnWasRequestedDuringTheLease() throws Exception {
        String schema = freshSchema();
        World world = open(config(schema));
        for (String id : List.of("r1", "r2", "r3")) {
            world.eventLog().create(newRun(id));
        }
        Map<String, Lease> leases = world.taskQueue().lease("w", Set.of(QUEUE), 3, Duration.ofMinutes(1)).stream()
                .collect(Collectors.toMap(Lease::runId, Function.identity()));
        clock.advance(Duration.ofSeconds(5));
        Instant signalled = clock.instant();
        world.signals().send("r2", "go", Payload.NULL);
        clock.advance(Duration.ofSeconds(5));
        Instant wake = clock.instant().plusSeconds(60);

        List<AppendResult> results = world.eventLog()
                .append(List.of(
                        new Append(
                                "r1",
                                1,
                                markers("r1", 1, 1),
                                RunStatus.WAITING,
                                List.of(),
                                new TurnEnd(leases.get("r1"), null)),
                        new Append(
                                "r2",
                                1,
                                markers("r2", 1, 1),
                                RunStatus.WAITING,
                                List.of(),
                                new TurnEnd(leases.get("r2"), null)),
                        new Append(
                                "r3",
                                1,
                                markers("r3", 1, 1),
                                RunStatus.SLEEPING,
                                List.of(),
                                new TurnEnd(leases.get("r3"), wake))));

        assertThat(results).allSatisfy(r -> assertThat(r.appended()).isTrue());
        assertThat(tasks(schema))
                .containsOnlyKeys("r2", "r3")
                .containsEntry("r2", "due " + Micros.of(signalled))
                .containsEntry("r3", "due " + Micros.of(wake));
        assertThat(world.taskQueue().nextDue(Set.of(QUEUE))).contains(signalled);
    }

    @Test
    void aSignalSentWhileTheRunWasLeasedKeepsItsTurnDueWhenTheTurnEndsWithNothingNext() throws Exception {
        String schema = freshSchema();
        World world = open(config(schema));
        world.eventLog().create(newRun("r1"));
        Lease lease = world.taskQueue()
                .lease("w", Set.of(QUEUE), 1, Duration.ofMinutes(1))
                .getFirst();
        clock.advance(Duration.ofSeconds(5));
        Instant signalled = clock.instant();
        world.signals().send("r1", "go", Payload.NULL);
        clock.advance(Duration.ofSeconds(5));

        AppendResult result = world.eventLog()
                .append(List.of(new Append(
                        "r1", 1, markers("r1", 1, 1), RunStatus.WAITING, List.of(), new TurnEnd(lease, null))))
                .getFirst();

        assertThat(result).isEqualTo(new AppendResult(true, 2, false));
        assertThat(tasks(schema)).containsExactly(Map.entry("r1", "due " + Micros.of(signalled)));
        assertThat(world.taskQueue().lease("w", Set.of(QUEUE), 1, Duration.ofMinutes(1)))
                .extracting(Lease::runId, Lease::deliveries)
                .containsExactly(tuple("r1", 1));
    }

    /**
     * A turn requested by a transaction that commits while the append's statement waits for the run's row (its
     * snapshot taken before): the statement's delete re-checks the row and leaves it, and its update makes the
     * turn due at the requested time instead of leaving it leased under an ended lease.
     */
    @Test
    void aTurnRequestedWhileTheAppendWaitsForTheRunIsNotLost() throws Exception {
        assertATurnRequestedWhileTheAppendWaitsIsNotLost(List.of("r1"));
    }

    @Test
    void aTurnRequestedWhileABatchWaitsForTheRunIsNotLost() throws Exception {
        assertATurnRequestedWhileTheAppendWaitsIsNotLost(List.of("r1", "r2"));
    }

    /** A turn is requested for the first run while the batch of appends ending all their turns waits for it. */
    private void assertATurnRequestedWhileTheAppendWaitsIsNotLost(List<String> runIds) throws Exception {
        String schema = freshSchema();
        World world = open(config(schema));
        runIds.forEach(id -> world.eventLog().create(newRun(id)));
        Map<String, Lease> leases =
                world.taskQueue().lease("w", Set.of(QUEUE), runIds.size(), Duration.ofMinutes(1)).stream()
                        .collect(Collectors.toMap(Lease::runId, Function.identity()));
        long requested = Micros.of(clock.instant().plusSeconds(1));
        List<Append> appends = runIds.stream()
                .map(id -> new Append(
                        id, 1, markers(id, 1, 1), RunStatus.WAITING, List.of(), new TurnEnd(leases.get(id), null)))
                .toList();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement()) {
            // as a signal does: the run's row locked, then the leased turn's request recorded
            c.setAutoCommit(false);
            st.executeQuery("SELECT 1 FROM " + schema + ".wf_runs WHERE run_id = 'r1' FOR UPDATE")
                    .close();
            st.executeUpdate("UPDATE " + schema + ".wf_tasks SET requested_at = " + requested + " WHERE run_id = 'r1'");
            Future<List<AppendResult>> append =
                    pool.submit(() -> world.eventLog().append(appends));
            waitForALockWaitOn(schema);
            c.commit();

            assertThat(append.get(30, TimeUnit.SECONDS)).containsOnly(new AppendResult(true, 2, false));
        } finally {
            pool.shutdownNow();
        }
        assertThat(tasks(schema)).as("the others' turns are gone").containsExactly(Map.entry("r1", "due " + requested));
    }

    /** Waits until a statement on the tables of {@code schema} waits for a lock. */
    private static void waitForALockWaitOn(String schema) throws Exception {
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement()) {
            for (int i = 0; i < 500; i++) {
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE wait_event_type = 'Lock' AND query LIKE '%" + schema + "%'")) {
                    rs.next();
                    if (rs.getLong(1) > 0) {
                        return;
                    }
                }
                Thread.sleep(10);
            }
        }
        throw new AssertionError("no statement on " + schema + " waits for a lock");
    }

    /** Each task row: "due <available_at>" when not leased, "leased" when leased. */
    private static Map<String, String> tasks(String schema) throws Exception {
        Map<String, String> out = new TreeMap<>();
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT run_id, available_at, requested_at, lease_token FROM " + schema + ".wf_tasks")) {
            while (rs.next()) {
                rs.getLong(3);
                String requested = rs.wasNull() ? "" : " requested " + rs.getLong(3);
                out.put(rs.getString(1), (rs.getString(4) == null ? "due " + rs.getLong(2) : "leased") + requested);
            }
        }
        return out;
    }

    @Test
    void anAppendsEventsAreStoredAsTheCodecWroteThemCharacterForCharacter() throws Exception {
        String schema = freshSchema();
        World world = open(config(schema));
        world.eventLog().create(newRun("r1"));
        Payload odd = new Payload("{\"b\":1,  \"a\":[1.50, 2e3, {\"z\":null}],\"ü\":\"\\u00fc ✓\"}", "com.acme.Odd");
        Event event = new StepCompleted("r1", 1, clock.instant(), "s", 1, odd);
        Event marker = new MarkerRecorded("r1", 2, clock.instant(), "m", "note", odd);

        world.eventLog().append(List.of(new Append("r1", 1, List.of(event, marker), RunStatus.RUNNING)));

        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT events, last_seq FROM " + schema + ".wf_event_log WHERE seq = 1")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo(codec.eventCodec().encodeAll(List.of(event, marker)));
            assertThat(rs.getLong(2)).isEqualTo(2);
        }
        String stored = codec.eventCodec().encodeAll(List.of(event, marker));
        assertThat(world.eventLog().read("r1", 1))
                .containsExactlyElementsOf(codec.eventCodec().decodeAll("r1", 1, stored));
        assertThat(world.eventLog().read("r1", 2))
                .as("read from inside a row")
                .containsExactly(codec.eventCodec().decodeAll("r1", 1, stored).get(1));
        assertThat(world.eventLog().read("r1", 3)).isEmpty();
    }
}
