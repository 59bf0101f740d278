package io.worldflow.world.postgres;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.SchemaVersionException;
import io.worldflow.WorldException;
import io.worldflow.event.Event;
import io.worldflow.event.MarkerRecorded;
import io.worldflow.spi.Append;
import io.worldflow.spi.Lease;
import io.worldflow.spi.LeasedRuns;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.RunQueries;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldConfig;
import io.worldflow.tck.StoredFixtures;
import io.worldflow.world.jdbc.Micros;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Creating, migrating and refusing schemas. */
class MigrationTest extends PgTestSupport {

    @Test
    void aNewSchemaIsCreatedWithItsVersionRecorded() throws Exception {
        String schema = freshSchema();

        open(config(schema));

        assertThat(versions(schema, "wf_"))
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18);
        assertThat(tables(schema))
                .containsExactlyInAnyOrder(
                        "wf_event_log",
                        "wf_queues",
                        "wf_revoked_urls",
                        "wf_run_attributes",
                        "wf_runs",
                        "wf_schedules",
                        "wf_schema_version",
                        "wf_signals",
                        "wf_signal_keys",
                        "wf_tasks");
    }

    @Test
    void openingAgainChangesNothing() throws Exception {
        String schema = freshSchema();
        World first = open(config(schema));
        first.eventLog().create(newRun("r1"));

        World second = open(config(schema));

        assertThat(versions(schema, "wf_"))
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18);
        assertThat(second.eventLog().read("r1", 0)).hasSize(1);
    }

    @Test
    void aVersion2LogOfARowPerEventIsCarriedOverEventForEvent() throws Exception {
        String schema = freshSchema();
        WorldConfig config = config(schema);
        String upToVersion2 = printedUpTo(config, 2);
        Event started = newRun("r1").startedEvent();
        Event marker = new MarkerRecorded("r1", 1, clock.instant(), "m", "note", new Payload("[1,2]", null));
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement()) {
            st.execute(upToVersion2);
            st.execute("INSERT INTO " + schema + ".wf_runs (run_id, workflow, status, input_json, created_at,"
                    + " updated_at, available_at, queue, priority, log_length) VALUES ('r1', 'wf', 'RUNNING', '1', 0,"
                    + " 0, 0, 'default', 0, 2)");
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO " + schema + ".wf_events (run_id, seq, type, at, json) VALUES ('r1', ?, ?, 0, ?)")) {
                for (Event e : List.of(started, marker)) {
                    ps.setLong(1, e.seq());
                    ps.setString(2, e.type());
                    ps.setString(3, codec.eventCodec().encode(e));
                    ps.executeUpdate();
                }
            }
        }
        assertThat(versions(schema, "wf_")).containsExactly(1, 2);

        World world = open(config);

        assertThat(versions(schema, "wf_"))
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18);
        assertThat(tables(schema)).contains("wf_event_log").doesNotContain("wf_events");
        assertThat(world.eventLog().read("r1", 0)).containsExactly(started, marker);
        assertThat(world.eventLog().read("r1", 1)).containsExactly(marker);
        Event next = new MarkerRecorded("r1", 2, clock.instant(), "m2", "note", new Payload("3", null));
        assertThat(world.eventLog()
                        .append(List.of(new Append("r1", 2, List.of(next), RunStatus.RUNNING)))
                        .getFirst()
                        .appended())
                .isTrue();
        assertThat(world.eventLog().read("r1", 0)).containsExactly(started, marker, next);
    }

    @Test
    void aRunCreatedBeforeVersion6KeepsItsFirstRecordInTheLogAndReadsAsBefore() throws Exception {
        String schema = freshSchema();
        WorldConfig config = config(schema);
        Event started = newRun("old").startedEvent();
        Event marker = new MarkerRecorded("old", 1, clock.instant(), "m", "note", new Payload("[1,2]", null));
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement()) {
            st.execute(printedUpTo(config, 5));
            st.execute("INSERT INTO " + schema + ".wf_runs (run_id, workflow, status, input_json, created_at,"
                    + " updated_at, available_at, queue, priority, log_length) VALUES ('old', 'wf', 'PENDING', '1', 0,"
                    + " 0, 0, 'default', 0, 2)");
            st.execute("INSERT INTO " + schema + ".wf_tasks (run_id, queue, priority, available_at) VALUES ('old',"
                    + " 'default', 0, 0)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + schema
                    + ".wf_event_log (run_id, seq, last_seq, events) VALUES ('old', ?, ?, ?)")) {
                for (Event e : List.of(started, marker)) {
                    ps.setLong(1, e.seq());
                    ps.setLong(2, e.seq());
                    ps.setString(3, codec.eventCodec().encodeAll(List.of(e)));
                    ps.executeUpdate();
                }
            }
        }

        World world = open(config);
        world.eventLog().create(newRun("new"));

        assertThat(versions(schema, "wf_"))
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18);
        assertThat(world.eventLog().read("old", 0)).containsExactly(started, marker);
        assertThat(world.eventLog().read("old", 1)).containsExactly(marker);
        assertThat(world.workerAccess().load(List.of("old")).get("old").events())
                .containsExactly(started, marker);
        LeasedRuns leased =
                world.workerAccess().leaseAndLoad("w", Set.of("default"), 10, Duration.ofMinutes(1), Duration.ZERO);
        assertThat(leased.runs().get("old").events()).containsExactly(started, marker);
        assertThat(leased.runs().get("new").events())
                .containsExactly(newRun("new").startedEvent());
        assertThat(world.eventLog().read("new", 0))
                .containsExactly(newRun("new").startedEvent());
        assertThat(world.eventLog().read("new", 1)).isEmpty();
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT run_id, started IS NOT NULL, (SELECT count(*) FROM " + schema
                        + ".wf_event_log l WHERE l.run_id = r.run_id) FROM " + schema + ".wf_runs r ORDER BY run_id")) {
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(rs.getString(1) + " " + rs.getBoolean(2) + " " + rs.getLong(3));
            }
            assertThat(rows).as("run, first record in its row, log rows").containsExactly("new true 0", "old false 2");
        }
    }

    @Test
    void aVersion3SchemaListsItsRunsByStatusAsBeforeWithNoIndexOnTheStatus() throws Exception {
        String schema = freshSchema();
        WorldConfig config = config(schema);
        String upToVersion3 = printedUpTo(config, 3);
        String[][] runs = {
            {"done", "COMPLETED"}, {"live", "RUNNING"}, {"nap", "SLEEPING"}, {"bad", "FAILED"}, {"new", "PENDING"}
        };
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement()) {
            st.execute(upToVersion3);
            for (int i = 0; i < runs.length; i++) {
                st.execute("INSERT INTO " + schema + ".wf_runs (run_id, workflow, status, input_json, created_at,"
                        + " updated_at, available_at, queue, priority, log_length) VALUES ('" + runs[i][0]
                        + "', 'wf', '" + runs[i][1] + "', '1', " + i + ", 0, 0, 'default', 0, 1)");
            }
        }

        World world = open(config);

        assertThat(versions(schema, "wf_"))
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18);
        RunQueries queries = world.runQueries();
        assertThat(ids(queries.list(RunQuery.all().withStatuses(RunStatus.COMPLETED))))
                .containsExactly("done");
        assertThat(ids(queries.list(RunQuery.all().withStatuses(RunStatus.RUNNING))))
                .containsExactly("live");
        assertThat(ids(queries.list(
                        RunQuery.all().withStatuses(RunStatus.RUNNING, RunStatus.FAILED, RunStatus.PENDING))))
                .containsExactly("new", "bad", "live");
        assertThat(ids(queries.list(RunQuery.all().withStatuses(RunStatus.SLEEPING))))
                .containsExactly("nap");
        assertThat(ids(queries.list(RunQuery.all().withStatuses(RunStatus.PENDING, RunStatus.RUNNING))))
                .containsExactly("new", "live");
        assertThat(ids(queries.list(RunQuery.all().withStatuses(RunStatus.SLEEPING, RunStatus.PENDING))))
                .containsExactly("new", "nap");
        assertThat(ids(queries.list(RunQuery.all().withStatuses(RunStatus.CANCELED))))
                .isEmpty();
        assertThat(ids(queries.list(RunQuery.all()))).containsExactly("new", "bad", "nap", "live", "done");
        assertThat(queries.countByStatus(RunQuery.all()))
                .containsEntry(RunStatus.SLEEPING, 1L)
                .containsEntry(RunStatus.COMPLETED, 1L)
                .containsEntry(RunStatus.CANCELED, 0L);
        // a pending or running run's updates can be HOT only while no index reads the status
        assertThat(indexedColumns(schema, "wf_runs"))
                .contains("resting", "created_at", "run_id", "workflow")
                .doesNotContain("status");
    }

    @Test
    void aVersion4QueueKeepsItsTurnsAndNoIndexHoldsWhatALeaseChanges() throws Exception {
        String schema = freshSchema();
        WorldConfig config = config(schema);
        String upToVersion4 = printedUpTo(config, 4);
        long now = Micros.of(clock.instant());
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement()) {
            st.execute(upToVersion4);
            st.execute("INSERT INTO " + schema + ".wf_tasks (run_id, queue, priority, available_at, lease_token,"
                    + " lease_owner, lease_expires, deliveries) VALUES"
                    + " ('due', 'default', 0, " + (now - 1_000) + ", NULL, NULL, NULL, 0),"
                    + " ('in-flight', 'default', 0, " + (now - 3_000) + ", 'tok-a', 'w0', " + (now + 60_000_000)
                    + ", 1),"
                    + " ('lapsed', 'default', 0, " + (now - 2_000) + ", 'tok-b', 'w0', " + (now - 10) + ", 1),"
                    + " ('later', 'default', 0, " + (now + 3_600_000_000L) + ", NULL, NULL, NULL, 0)");
        }

        World world = open(config);

        assertThat(versions(schema, "wf_"))
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18);
        // leasing changes no indexed column (nor one an index's predicate reads): its updates can be HOT
        assertThat(indexDefinitions(schema, "wf_tasks"))
                .hasSize(3)
                .noneMatch(d -> d.contains("lease_") || d.contains("deliveries") || d.contains("requested_at"));
        assertThat(world.taskQueue().nextDue(Set.of("default"))).contains(Micros.toInstant(now - 1_000));
        List<Lease> leased = world.taskQueue().lease("w1", Set.of("default"), 10, Duration.ofSeconds(30));
        assertThat(leased).extracting(Lease::runId).containsExactly("lapsed", "due");
        assertThat(leased).extracting(Lease::deliveries).containsExactly(2, 1);
        // next: the earliest lease to lapse, before the in-flight turn's and the sleeping turn's due time
        assertThat(world.taskQueue().nextDue(Set.of("default")))
                .contains(Micros.toInstant(now).plusSeconds(30));
        assertThat(world.taskQueue().lease("w2", Set.of("default"), 10, Duration.ofSeconds(30)))
                .isEmpty();
        clock.advance(Duration.ofSeconds(31));
        assertThat(world.taskQueue().lease("w2", Set.of("default"), 10, Duration.ofSeconds(30)))
                .extracting(Lease::runId)
                .containsExactly("lapsed", "due");
    }

    @Test
    void runsThatFinishedBeforeVersion9AreFoundByRetentionAndNoIndexHoldsWhatAnAppendChanges() throws Exception {
        String schema = freshSchema();
        WorldConfig config = config(schema);
        String[][] runs = {{"done", "COMPLETED"}, {"broke", "FAILED"}, {"stopped", "CANCELED"}, {"busy", "RUNNING"}};
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement()) {
            st.execute(printedUpTo(config, 8));
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + schema + ".wf_runs (run_id, workflow,"
                    + " status, input_json, created_at, updated_at, available_at, queue, priority, log_length, started)"
                    + " VALUES (?, 'wf', ?, '1', 0, 0, 0, 'default', 0, 1, ?)")) {
                for (String[] run : runs) {
                    ps.setString(1, run[0]);
                    ps.setString(2, run[1]);
                    ps.setString(
                            3,
                            codec.eventCodec().encodeAll(List.of(newRun(run[0]).startedEvent())));
                    ps.executeUpdate();
                }
            }
        }

        World world = open(config);

        assertThat(versions(schema, "wf_"))
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18);
        assertThat(world.eventLog().purgeFinished(clock.instant(), 10)).isEqualTo(3);
        assertThat(ids(world.runQueries().list(RunQuery.all()))).containsExactly("busy");
        assertThat(world.eventLog().read("busy", 0)).hasSize(1);
        // an append changes status and updated_at; neither is indexed, so a run in flight is still updated HOT
        assertThat(indexedColumns(schema, "wf_runs")).contains("finished_at").doesNotContain("status", "updated_at");
    }

    @Test
    void aChainWrittenBeforeVersion18IsKeptByRetentionWhileItsLastRunIsNot() throws Exception {
        String schema = freshSchema();
        WorldConfig config = config(schema);
        // id, status, the run it continues; chain~2 keeps its first record in the log, as runs before version 6 did
        String[][] runs = {
            {"chain", "COMPLETED", null},
            {"chain~2", "COMPLETED", "chain"},
            {"chain~3", "WAITING", "chain~2"},
            {"solo~2", "COMPLETED", null}
        };
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement()) {
            st.execute(printedUpTo(config, 17));
            try (PreparedStatement run = c.prepareStatement("INSERT INTO " + schema + ".wf_runs (run_id, workflow,"
                            + " status, input_json, created_at, updated_at, available_at, queue, priority, log_length,"
                            + " started) VALUES (?, 'wf', ?, '1', 0, 0, 0, 'default', 0, 1, ?)");
                    PreparedStatement log = c.prepareStatement("INSERT INTO " + schema
                            + ".wf_event_log (run_id, seq, last_seq, events) VALUES (?, 0, 0, ?)")) {
                for (String[] r : runs) {
                    NewRun started = new NewRun(
                                    r[0],
                                    "wf",
                                    new Payload("1", null),
                                    Instant.EPOCH,
                                    Instant.EPOCH,
                                    null,
                                    "default",
                                    0)
                            .withContinuedFrom(r[2]);
                    String record = codec.eventCodec().encodeAll(List.of(started.startedEvent()));
                    boolean inLog = r[0].equals("chain~2");
                    run.setString(1, r[0]);
                    run.setString(2, r[1]);
                    run.setString(3, inLog ? null : record);
                    run.executeUpdate();
                    if (inLog) {
                        log.setString(1, r[0]);
                        log.setString(2, record);
                        log.executeUpdate();
                    }
                }
            }
        }

        World world = open(config);

        assertThat(versions(schema, "wf_"))
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18);
        assertThat(world.eventLog().purgeFinished(clock.instant(), 10)).isEqualTo(1);
        assertThat(ids(world.runQueries().list(RunQuery.all())))
                .containsExactlyInAnyOrder("chain", "chain~2", "chain~3");
    }

    private static List<String> indexDefinitions(String schema, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_get_indexdef(indexrelid) FROM pg_index"
                        + " WHERE indrelid = '" + schema + "." + table + "'::regclass")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /** The printed schema script cut after version {@code last}, committed: a schema as that version left it. */
    private static String printedUpTo(WorldConfig config, int last) {
        String printed = PrintSchema.migrationSql(config);
        return printed.substring(0, printed.indexOf("\n-- V" + (last + 1) + "__")) + "\nCOMMIT;\n";
    }

    private static List<String> ids(RunPage page) {
        return page.runs().stream().map(RunInfo::runId).toList();
    }

    private static List<String> indexedColumns(String schema, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT DISTINCT a.attname FROM pg_index i"
                        + " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)"
                        + " WHERE i.indrelid = '" + schema + "." + table + "'::regclass")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    @Test
    void theTablePrefixSeparatesWorldsInOneSchema() throws Exception {
        String schema = freshSchema();
        World a = open(config(schema));
        World b = open(config(schema).with(PostgresWorldProvider.TABLE_PREFIX, "other_"));
        a.eventLog().create(newRun("r1"));

        assertThat(b.runQueries().get("r1")).isEmpty();
        assertThat(versions(schema, "other_"))
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18);
        assertThat(tables(schema)).contains("wf_runs", "other_runs");
    }

    @Test
    void aRunHeldBeforeVersion7CountsItsHoldFromItsLastChangeAndIsListedAsHeld() throws Exception {
        String schema = freshSchema();
        WorldConfig config = config(schema);
        String reason =
                codec.eventCodec().encodeError(ErrorInfo.of("io.worldflow.NonDeterministicWorkflowException", "x"));
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement()) {
            st.execute(printedUpTo(config, 6));
            for (String id : List.of("held", "free")) {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + schema + ".wf_runs (run_id, workflow,"
                        + " status, input_json, created_at, updated_at, available_at, queue, priority, log_length, held)"
                        + " VALUES (?, 'wf', 'SLEEPING', '1', 0, 5000000, 0, 'default', 0, 1, ?)")) {
                    ps.setString(1, id);
                    ps.setString(2, id.equals("held") ? reason : null);
                    ps.executeUpdate();
                }
            }
        }

        World world = open(config);

        RunInfo held = world.runQueries().get("held").orElseThrow();
        assertThat(held.held()).isEqualTo(ErrorInfo.of("io.worldflow.NonDeterministicWorkflowException", "x"));
        assertThat(held.heldSince()).isEqualTo(Instant.ofEpochSecond(5));
        assertThat(world.runQueries().get("free").orElseThrow().heldSince()).isNull();
        assertThat(ids(world.runQueries().list(RunQuery.all().withHeld(true)))).containsExactly("held");
        assertThat(ids(world.runQueries().list(RunQuery.all().withHeld(false)))).containsExactly("free");
        assertThat(indexDefinitions(schema, "wf_runs"))
                .anySatisfy(d -> assertThat(d).contains("runs_held").contains("WHERE (held IS NOT NULL)"));
    }

    @Test
    void aDatabaseWrittenAtSchemaVersion6ReadsBackAsItsVersionExportedIt() throws Exception {
        String schema = freshSchema();
        WorldConfig config = config(schema);
        String rows;
        try (var in = getClass().getResourceAsStream("/fixtures/schema6-rows.sql")) {
            rows = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replace("${schema}", schema)
                    .replace("${prefix}", "wf_");
        }
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement()) {
            st.execute(printedUpTo(config, 6));
            st.execute(rows);
        }

        World world = open(config);

        assertThat(versions(schema, "wf_"))
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18);
        StoredFixtures.assertTimelinesReadBack(
                world, getClass().getResourceAsStream("/fixtures/postgres-timelines.json"));
    }

    @Test
    void aSchemaOfANewerVersionIsRefusedClearly() {
        String schema = freshSchema();
        open(config(schema)).close();
        TestPostgres.shared().execute("INSERT INTO " + schema + ".wf_schema_version VALUES (19, 'V19__future.sql', 0)");

        assertThatThrownBy(() -> open(config(schema)))
                .isInstanceOf(SchemaVersionException.class)
                .satisfies(e -> assertThat(((WorldException) e).isTransient()).isFalse())
                .hasMessageContaining("schema version 19")
                .hasMessageContaining("supports up to 18")
                .hasMessageContaining(schema + ".wf_");
    }

    @Test
    void tablesOfSomethingElseAreNotTouched() {
        String schema = freshSchema();
        TestPostgres.shared()
                .execute(
                        "CREATE SCHEMA " + schema,
                        "CREATE TABLE " + schema + ".wf_runs (id integer PRIMARY KEY, note text)");

        assertThatThrownBy(() -> open(config(schema)))
                .isInstanceOf(WorldException.class)
                .satisfies(e -> assertThat(((WorldException) e).isTransient()).isFalse())
                .hasMessageContaining("belong to something else")
                .hasMessageContaining(PostgresWorldProvider.SCHEMA);
        assertThat(tables(schema)).containsExactly("wf_runs");
    }

    @Test
    void workersStartingTogetherMigrateOnce() throws Exception {
        String schema = freshSchema();
        WorldConfig config = config(schema).with(PostgresWorldProvider.POOL_SIZE, "1");
        int workers = 8;
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        List<World> worlds = new ArrayList<>();
        try {
            List<Future<World>> futures = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                Callable<World> task = () -> {
                    go.await();
                    return open(config);
                };
                futures.add(pool.submit(task));
            }
            go.countDown();
            for (Future<World> f : futures) {
                worlds.add(f.get(30, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(worlds).hasSize(workers);
        assertThat(versions(schema, "wf_"))
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18);
        worlds.getFirst().eventLog().create(newRun("r1"));
        assertThat(worlds.getLast().eventLog().read("r1", 0)).hasSize(1);
    }

    @Test
    void worldsWithDifferentPrefixesCreateTheirSharedSchemaTogether() throws Exception {
        String schema = freshSchema();
        int workers = 6;
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try {
            List<Future<World>> futures = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                WorldConfig config = config(schema)
                        .with(PostgresWorldProvider.TABLE_PREFIX, "p" + i + "_")
                        .with(PostgresWorldProvider.POOL_SIZE, "1");
                futures.add(pool.submit(() -> {
                    go.await();
                    return open(config);
                }));
            }
            go.countDown();
            for (Future<World> f : futures) {
                assertThat(f.get(30, TimeUnit.SECONDS)).isNotNull();
            }
        } finally {
            pool.shutdownNow();
        }
        for (int i = 0; i < workers; i++) {
            assertThat(versions(schema, "p" + i + "_"))
                    .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18);
        }
    }

    @Test
    void thePrintedSchemaAppliesToAnEmptySchemaAndTheWorldFindsItCurrent() throws Exception {
        String schema = freshSchema();
        WorldConfig config = config(schema).with(PostgresWorldProvider.TABLE_PREFIX, "dba_");
        String sql = PrintSchema.migrationSql(config);
        assertThat(sql).contains("CREATE TABLE " + schema + ".dba_runs").doesNotContain("${");

        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement()) {
            st.execute(sql);
        }
        assertThat(versions(schema, "dba_"))
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18);
        World world = open(config);

        assertThat(versions(schema, "dba_"))
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18);
        assertThat(world.eventLog().create(newRun("r1")).created()).isTrue();
        assertThat(world.eventLog().read("r1", 0)).hasSize(1);
    }

    @Test
    void thePrintedSchemaNeedsNoUrlButValidatesTheNames() {
        String sql = PrintSchema.migrationSql(WorldConfig.of(java.util.Map.of()));

        assertThat(sql)
                .contains("CREATE SCHEMA IF NOT EXISTS worldflow")
                .contains("worldflow.wf_event_log")
                .contains("pg_advisory_xact_lock(")
                .contains("BEGIN;")
                .contains("COMMIT;");
        assertThatThrownBy(() -> PrintSchema.migrationSql(
                        WorldConfig.of(java.util.Map.of(PostgresWorldProvider.SCHEMA, "bad-name"))))
                .isInstanceOf(io.worldflow.ConfigurationException.class);
    }

    private static List<Integer> versions(String schema, String prefix) throws SQLException {
        List<Integer> out = new ArrayList<>();
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT version FROM " + schema + "." + prefix + "schema_version ORDER BY version")) {
            while (rs.next()) {
                out.add(rs.getInt(1));
            }
        }
        return out;
    }

    private static List<String> tables(String schema) {
        List<String> out = new ArrayList<>();
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT tablename FROM pg_tables WHERE schemaname = '" + schema + "'")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }
}
