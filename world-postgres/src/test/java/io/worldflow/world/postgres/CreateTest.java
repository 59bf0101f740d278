package io.worldflow.world.postgres;

import io.worldflow.Payload;
import io.worldflow.RunStatus;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.World;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Creating a run: one statement that inserts the row only where no run has the id. */
class CreateTest extends PgTestSupport {

    @Test
    void creatorsOfOneIdAtTheSameMomentGetOneRunAndAllSeeIt() throws Exception {
        String schema = freshSchema();
        World world = open(config(schema));
        int ids = 100;
        int creators = 6;
        ExecutorService pool = Executors.newFixedThreadPool(creators);
        try {
            for (int i = 0; i < ids; i++) {
                String runId = "same-" + i;
                CountDownLatch go = new CountDownLatch(1);
                List<Future<CreateResult>> results = new ArrayList<>();
                for (int c = 0; c < creators; c++) {
                    NewRun run = new NewRun(
                            runId,
                            "wf",
                            new Payload("{\"creator\":" + c + "}", "com.acme.In"),
                            clock.instant(),
                            clock.instant(),
                            null,
                            QUEUE,
                            0);
                    results.add(pool.submit(() -> {
                        go.await();
                        return world.eventLog().create(run);
                    }));
                }
                go.countDown();
                List<CreateResult> got = new ArrayList<>();
                for (Future<CreateResult> f : results) {
                    got.add(f.get());
                }
                assertThat(got)
                        .filteredOn(CreateResult::created)
                        .as("created once: " + runId)
                        .hasSize(1);
                Payload input = got.stream()
                        .filter(CreateResult::created)
                        .findFirst()
                        .orElseThrow()
                        .run()
                        .input();
                assertThat(got).allSatisfy(r -> assertThat(r.run().input()).isEqualTo(input));
            }
        } finally {
            pool.shutdownNow();
        }
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT (SELECT count(*) FROM " + schema + ".wf_runs), (SELECT count(started)"
                                + " FROM " + schema + ".wf_runs), (SELECT count(*) FROM " + schema
                                + ".wf_event_log), (SELECT count(*)"
                                + " FROM " + schema + ".wf_tasks)")) {
            rs.next();
            assertThat(List.of(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)))
                    .as("runs, first records in their rows, log rows, turns")
                    .containsExactly((long) ids, (long) ids, 0L, (long) ids);
        }
    }

    /**
     * An append's starts go to the server as one batch. When another transaction is creating one of their ids at that
     * moment, the batch meets its key once that one commits; each run is then created by itself, so that the others
     * exist and that one is the other transaction's, untouched.
     */
    @Test
    void startsThatMeetARunBeingCreatedElsewhereCreateTheOthers() throws Exception {
        String schema = freshSchema();
        World world = open(config(schema));
        world.eventLog().create(newRun("parent"));
        List<NewRun> kids = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            kids.add(new NewRun(
                    "parent/kid-" + i,
                    "wf",
                    new Payload("{\"kid\":" + i + "}", "com.acme.In"),
                    clock.instant(),
                    clock.instant(),
                    null,
                    QUEUE,
                    0,
                    "parent"));
        }
        Append append =
                new Append("parent", 1, List.of(), RunStatus.RUNNING).withEffects(kids, List.of(), List.of(), null);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection other = TestPostgres.shared().connect();
                Statement st = other.createStatement();
                Connection watcher = TestPostgres.shared().connect();
                Statement watch = watcher.createStatement()) {
            other.setAutoCommit(false);
            st.executeUpdate("INSERT INTO " + schema + ".wf_runs (run_id, workflow, status, input_json, created_at,"
                    + " updated_at, available_at, queue, priority, log_length)"
                    + " VALUES ('parent/kid-2', 'elsewhere', 'PENDING', '{}', 0, 0, 0, 'default', 0, 0)");
            Future<List<AppendResult>> appended =
                    pool.submit(() -> world.eventLog().append(List.of(append)));
            long until = System.nanoTime() + 10_000_000_000L;
            while (!waitsForALock(watch, schema)) {
                assertThat(appended.isDone())
                        .as("the append waits for the other creation")
                        .isFalse();
                assertThat(System.nanoTime())
                        .as("the append reached the other creation")
                        .isLessThan(until);
                Thread.sleep(10);
            }
            other.commit();
            assertThat(appended.get(10, TimeUnit.SECONDS))
                    .singleElement()
                    .satisfies(r -> assertThat(r.appended()).isTrue());
        } finally {
            pool.shutdownNow();
        }
        assertThat(world.runQueries().get("parent/kid-1").orElseThrow().parent())
                .isEqualTo("parent");
        assertThat(world.runQueries().get("parent/kid-3").orElseThrow().parent())
                .isEqualTo("parent");
        assertThat(world.runQueries().get("parent/kid-2").orElseThrow().workflow())
                .isEqualTo("elsewhere");
        assertThat(world.eventLog().read("parent/kid-3", 0)).hasSize(1);
    }

    /**
     * Whether a session of this test's schema waits for a lock (the append, for the other creation's key); asked
     * outside any transaction, within which the server would answer from the snapshot of its first look.
     */
    private static boolean waitsForALock(Statement st, String schema) throws Exception {
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                + " AND query LIKE '%" + schema + "%'")) {
            rs.next();
            return rs.getLong(1) > 0;
        }
    }
}
