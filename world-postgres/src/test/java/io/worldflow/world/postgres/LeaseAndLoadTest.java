package io.worldflow.world.postgres;

import io.worldflow.Payload;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.MarkerRecorded;
import io.worldflow.spi.Append;
import io.worldflow.spi.Lease;
import io.worldflow.spi.LeasedRuns;
import io.worldflow.spi.World;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The lease statement that also reads the leased runs: every leased run comes back whole, in one round trip. */
class LeaseAndLoadTest extends PgTestSupport {

    private static final Duration LEASE = Duration.ofSeconds(30);

    private void appendMarkers(World world, String runId, long expectedSeq, int count) {
        List<Event> events = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            long seq = expectedSeq + i;
            events.add(new MarkerRecorded(
                    runId, seq, clock.instant(), "m" + seq, "now", new Payload(Long.toString(seq), "java.lang.Long")));
        }
        assertThat(world.eventLog()
                        .append(List.of(new Append(runId, expectedSeq, events, RunStatus.RUNNING)))
                        .getFirst()
                        .appended())
                .isTrue();
    }

    @Test
    void everyLeasedRunIsReadWithItsLogRowsInOrder() {
        World world = open(config(freshSchema()));
        for (int i = 0; i < 150; i++) {
            world.eventLog().create(newRun(String.format("run-%03d", i)));
        }
        // run-000: its log in five rows of different lengths
        long seq = 1;
        for (int rows = 1; rows <= 4; rows++) {
            appendMarkers(world, "run-000", seq, rows);
            seq += rows;
        }

        LeasedRuns leased = world.workerAccess().leaseAndLoad("worker-a", Set.of(QUEUE), 100, LEASE, Duration.ZERO);

        assertThat(leased.leases()).hasSize(100);
        assertThat(leased.runs().keySet())
                .containsExactlyInAnyOrderElementsOf(
                        leased.leases().stream().map(Lease::runId).toList());
        for (Lease l : leased.leases()) {
            assertThat(leased.runs().get(l.runId()).info())
                    .isEqualTo(world.runQueries().get(l.runId()).orElseThrow());
            assertThat(leased.runs().get(l.runId()).events())
                    .isEqualTo(world.eventLog().read(l.runId(), 0));
        }
        assertThat(leased.runs().get("run-000").events())
                .hasSize(11)
                .extracting(Event::seq)
                .containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);

        LeasedRuns rest =
                world.workerAccess().leaseAndLoad("worker-b", Set.of(QUEUE, "other"), 100, LEASE, Duration.ZERO);
        assertThat(rest.leases()).hasSize(50);
        assertThat(rest.runs()).hasSize(50);
        assertThat(world.workerAccess()
                        .leaseAndLoad("worker-c", Set.of(QUEUE), 100, LEASE, Duration.ZERO)
                        .leases())
                .isEmpty();
    }

    @Test
    void aTurnWhoseRunIsGoneIsLeasedWithoutARun() throws Exception {
        String schema = freshSchema();
        World world = open(config(schema));
        world.eventLog().create(newRun("kept"));
        world.eventLog().create(newRun("gone"));
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement()) {
            st.execute("SET session_replication_role = replica"); // no triggers or constraints: a dangling turn
            st.execute("DELETE FROM " + schema + ".wf_event_log WHERE run_id = 'gone'");
            st.execute("DELETE FROM " + schema + ".wf_runs WHERE run_id = 'gone'");
        }

        LeasedRuns leased = world.workerAccess().leaseAndLoad("worker-a", Set.of(QUEUE), 10, LEASE, Duration.ZERO);

        assertThat(leased.leases()).extracting(Lease::runId).containsExactlyInAnyOrder("kept", "gone");
        assertThat(leased.runs().keySet()).containsExactly("kept");
    }
}
