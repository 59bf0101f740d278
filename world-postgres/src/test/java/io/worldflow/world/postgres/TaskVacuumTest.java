package io.worldflow.world.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import io.worldflow.spi.Lease;
import io.worldflow.spi.LeasedRuns;
import io.worldflow.spi.TaskQueue;
import io.worldflow.spi.World;
import io.worldflow.world.jdbc.Micros;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Turns that end leave their tasks' old index entries in front of the due ones; a process that leased enough turns
 * vacuums them away, so that a lease stops stepping over them.
 */
class TaskVacuumTest extends PgTestSupport {

    private static final Duration LEASE = Duration.ofSeconds(30);

    @Test
    void aProcessThatLeasedEnoughTurnsVacuumsTheTasksSoALeaseNoLongerStepsOverThem() throws Exception {
        String vacuumed = freshSchema();
        String left = freshSchema();
        PgTaskQueue withVacuum = (PgTaskQueue) open(config(vacuumed)).taskQueue();
        PgTaskQueue without = (PgTaskQueue) open(config(left).with(PostgresWorldProvider.VACUUM_TASKS, "false"))
                .taskQueue();

        churn(vacuumed, withVacuum, TaskVacuum.TURNS);
        churn(left, without, TaskVacuum.TURNS);
        waitFor(() -> withVacuum.vacuum().vacuums() == 1);
        fill(vacuumed, 10, "due");
        fill(left, 10, "due");

        assertThat(vacuumCount(vacuumed)).isEqualTo(1);
        assertThat(vacuumCount(left)).isZero();
        assertThat(without.vacuum().vacuums()).isZero();
        long clean = leaseBlocks(withVacuum);
        long stepping = leaseBlocks(without);
        assertThat(clean)
                .as(
                        "blocks a lease of 10 due turns reads after %s turns ended, vacuumed (%s) or not (%s)",
                        TaskVacuum.TURNS, clean, stepping)
                .isLessThan(stepping / 3);
    }

    @Test
    void turnsLeasedAsTheyAreAdmittedCountAsLeasedTurns() throws Exception {
        String schema = freshSchema();
        World world = open(config(schema));
        PgTaskQueue queue = (PgTaskQueue) world.taskQueue();
        String waitIn = QUEUE + "\u001fwaiting";
        fill(schema, TaskVacuum.TURNS, "admitted", waitIn);
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= TaskVacuum.TURNS; i++) {
            ids.add("admitted-" + i);
        }
        for (int from = 0; from < ids.size(); from += 500) {
            List<String> batch = ids.subList(from, Math.min(ids.size(), from + 500));
            LeasedRuns leased = world.workerAccess()
                    .moveLeasing(batch, waitIn, QUEUE, clock.instant(), Set.copyOf(batch), "w", LEASE);
            assertThat(leased.leases()).hasSameSizeAs(batch);
            leased.leases().forEach(l -> queue.complete(l, null));
        }

        waitFor(() -> queue.vacuum().vacuums() == 1);
        assertThat(vacuumCount(schema)).isEqualTo(1);
    }

    @Test
    void aUserThatDoesNotOwnTheTablesLeavesThemToAutovacuumAndLeasesAsBefore() throws Exception {
        assumeTrue(TestPostgres.shared().isEmbedded(), "needs the embedded server's password role");
        String schema = freshSchema();
        open(config(schema)).close();
        TestPostgres.shared()
                .execute(
                        "GRANT USAGE ON SCHEMA " + schema + " TO " + TestPostgres.PASSWORD_USER,
                        "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + schema + " TO "
                                + TestPostgres.PASSWORD_USER);
        World tenant = open(config(schema)
                .with(PostgresWorldProvider.USER, TestPostgres.PASSWORD_USER)
                .with(PostgresWorldProvider.PASSWORD, TestPostgres.PASSWORD));
        PgTaskQueue queue = (PgTaskQueue) tenant.taskQueue();

        churn(schema, queue, TaskVacuum.TURNS);
        waitFor(() -> queue.vacuum().vacuums() == 1);

        assertThat(queue.vacuum().enabled()).as("vacuums after a refusal").isFalse();
        assertThat(vacuumCount(schema)).isZero();
        fill(schema, 3, "after");
        assertThat(queue.lease("w", Set.of(QUEUE), 10, LEASE)).hasSize(3);
    }

    @Test
    void aVacuumSettingThatIsNotABooleanIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> open(config(freshSchema()).with(PostgresWorldProvider.VACUUM_TASKS, "sometimes")))
                .hasMessageContaining(PostgresWorldProvider.VACUUM_TASKS)
                .hasMessageContaining("sometimes");
    }

    private static void waitFor(BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline)
                    .as("waited 20 s for a vacuum")
                    .isNegative();
            Thread.sleep(20);
        }
    }

    /**
     * {@code turns} due turns, each leased and ended (deleted) by the queue, in batches; the last batch is of one
     * turn, so that the vacuum its lease starts finds all but that one ended.
     */
    private void churn(String schema, TaskQueue queue, int turns) throws Exception {
        fill(schema, turns, "churn");
        int ended = 0;
        while (ended < turns) {
            int batch = ended < turns - 1 ? Math.min(500, turns - 1 - ended) : 1;
            List<Lease> leases = queue.lease("w", Set.of(QUEUE), batch, LEASE);
            assertThat(leases).isNotEmpty();
            for (Lease l : leases) {
                queue.complete(l, null);
            }
            ended += leases.size();
        }
    }

    /** {@code count} turns due now in the default queue. */
    private void fill(String schema, int count, String prefix) throws Exception {
        fill(schema, count, prefix, QUEUE);
    }

    /** {@code count} turns due now in {@code queue}. */
    private void fill(String schema, int count, String prefix, String queue) throws Exception {
        try (Connection c = TestPostgres.shared().connect();
                PreparedStatement st = c.prepareStatement("INSERT INTO " + schema
                        + ".wf_tasks (run_id, queue, priority, available_at) SELECT ? || '-' || i, ?, 0, ? - i"
                        + " FROM generate_series(1, ?) i")) {
            st.setString(1, prefix);
            st.setString(2, queue);
            st.setLong(3, Micros.of(clock.instant()));
            st.setInt(4, count);
            st.execute();
        }
    }

    private long vacuumCount(String schema) throws Exception {
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT vacuum_count FROM pg_stat_user_tables WHERE schemaname = '"
                        + schema + "' AND relname = 'wf_tasks'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Blocks of the buffer cache a lease of 10 reads, executed and rolled back. */
    private long leaseBlocks(PgTaskQueue queue) throws Exception {
        JsonNode plan = leasePlan(queue.leaseStatement(true), "queue", QUEUE, Micros.of(clock.instant()), 10);
        assertThat(plan.get("Actual Rows").asLong()).isEqualTo(10);
        return plan.get("Shared Hit Blocks").asLong()
                + plan.get("Shared Read Blocks").asLong();
    }
}
