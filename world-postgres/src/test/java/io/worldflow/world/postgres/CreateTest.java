package io.worldflow.world.postgres;

import io.worldflow.Payload;
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
}
