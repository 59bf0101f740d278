package io.worldflow.world.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import io.worldflow.world.jdbc.Sql;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A lease reads about as many turns as it takes, however many are due or sleeping, in a queue the server has
 * no statistics for yet (a schema just created and filled, as a backlog fills a new queue). Looked at in the
 * statement's plan, as executed ({@code EXPLAIN ANALYZE}, rolled back).
 */
class LeaseReadsTest extends PgTestSupport {

    private static final long NOW = 1_000_000_000L;
    private static final int MAX = 10;

    /** Rows a plan read from {@code tasks} (by any scan of it, returned or filtered out), and rows it leased. */
    private record Reads(long tasksRows, long leased, List<String> scans) {}

    @Test
    void aBacklogAndSleepersAreNotReadThrough() throws Exception {
        String schema = freshSchema();
        PgTaskQueue queue = (PgTaskQueue) open(config(schema)).taskQueue();
        fill(schema, "default", 3_000, 1_000);
        fill(schema, "other", 500, 500);

        Reads one = explain(queue.leaseStatement(true), "queue", "default");
        Reads several = explain(queue.leaseStatement(false), "queues", new String[] {"default", "other"});

        assertThat(one.leased()).isEqualTo(MAX);
        assertThat(one.tasksRows())
                .as("rows of tasks read, one queue: %s", one.scans())
                .isLessThan(60);
        assertThat(several.leased()).isEqualTo(MAX);
        assertThat(several.tasksRows())
                .as("rows of tasks read, two queues: %s", several.scans())
                .isLessThan(120);
    }

    @Test
    void fewDueAmongManySleepersAreFoundWithoutReadingTheSleepers() throws Exception {
        String schema = freshSchema();
        PgTaskQueue queue = (PgTaskQueue) open(config(schema)).taskQueue();
        fill(schema, "default", 3, 5_000);

        Reads one = explain(queue.leaseStatement(true), "queue", "default");

        assertThat(one.leased()).isEqualTo(3);
        assertThat(one.tasksRows()).as("rows of tasks read: %s", one.scans()).isLessThan(30);
    }

    /**
     * Turns of {@code queue} at priorities 0 and 5: {@code due} due before now (a tenth of them at 5), and
     * {@code sleeping} due an hour later.
     */
    private void fill(String schema, String queue, int due, int sleeping) throws Exception {
        try (Connection c = TestPostgres.shared().connect();
                Statement st = c.createStatement()) {
            st.execute("INSERT INTO " + schema + ".wf_tasks (run_id, queue, priority, available_at)"
                    + " SELECT '" + queue + "-' || i, '" + queue + "', CASE WHEN i % 10 = 0 THEN 5 ELSE 0 END,"
                    + " CASE WHEN i <= " + due + " THEN " + NOW + " - i ELSE " + NOW + " + 3600000000 END"
                    + " FROM generate_series(1, " + (due + sleeping) + ") i");
        }
    }

    private Reads explain(Sql lease, String queuesParam, Object queues) throws Exception {
        JsonNode plan = leasePlan(lease, queuesParam, queues, NOW, MAX);
        List<String> scans = new ArrayList<>();
        long rows = tasksRows(plan, scans);
        return new Reads(rows, plan.get("Actual Rows").asLong(), scans);
    }

    private static long tasksRows(JsonNode node, List<String> scans) {
        long rows = 0;
        if ("wf_tasks".equals(node.path("Relation Name").asText())
                && node.path("Node Type").asText().contains("Scan")) {
            long loops = node.path("Actual Loops").asLong();
            long read = (node.path("Actual Rows").asLong()
                            + node.path("Rows Removed by Filter").asLong()
                            + node.path("Rows Removed by Index Recheck").asLong())
                    * loops;
            scans.add(node.path("Node Type").asText() + " "
                    + node.path("Index Name").asText("") + ": " + read);
            rows += read;
        }
        for (JsonNode child : node.path("Plans")) {
            rows += tasksRows(child, scans);
        }
        return rows;
    }
}
