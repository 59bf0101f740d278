package io.worldflow.examples;

import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.event.ChildWorkflowStarted;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kills a worker with SIGKILL while its parents start children side by side, starts it again, and checks that every
 * child exists exactly once and exactly as its parent recorded it: no child without its parent's record of its
 * start, none started twice, and every parent ends with all its children's results. The kill comes once a child has
 * done its work, and each parent's last child waits for a file that the test makes only after the kill, so the worker
 * is always killed with some children started and some not, however the machine's load spaces them.
 */
class ChildrenCrashTest {

    private static final int PARENTS = 12;
    private static final int CHILDREN = 25;

    @TempDir
    Path dir;

    @Test
    @Timeout(240)
    void aWorkerKilledWhileStartingChildrenLeavesEachChildExactlyOnceAndRecorded() throws Exception {
        Path db = dir.resolve("children.db");
        Path ledger = dir.resolve("ledger.txt");
        Path gate = dir.resolve("gate");
        List<String> command = ChildJvm.command(
                List.of(),
                ChildrenCrashMain.class,
                List.of(
                        db.toString(),
                        ledger.toString(),
                        Integer.toString(PARENTS),
                        Integer.toString(CHILDREN),
                        gate.toString()));

        Process first = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("first.out").toFile())
                .start();
        ChildJvm.awaitLines(ledger, 1, first); // the first children have worked; the last wait for the gate
        first.destroyForcibly();
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(first.exitValue()).as("killed by SIGKILL").isEqualTo(137);
        assertThat(childRowsIn(db))
                .as("children started when the worker was killed")
                .isBetween(1, PARENTS * CHILDREN - PARENTS);

        Files.createFile(gate);
        ChildJvm.Result second = ChildJvm.run(command, dir.resolve("second.out"), Duration.ofSeconds(180));
        assertThat(second.exitValue()).as(second.output()).isZero();
        assertThat(second.output()).contains("parents completed: " + PARENTS);

        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", db.toString())
                .build()) {
            for (int p = 0; p < PARENTS; p++) {
                String parent = "parent-" + p;
                assertThat(wf.run(parent).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
                Set<String> recorded = wf.events(parent).stream()
                        .filter(ChildWorkflowStarted.class::isInstance)
                        .map(e -> ((ChildWorkflowStarted) e).childRunId())
                        .collect(Collectors.toSet());
                List<RunInfo> children = wf.runs(
                                RunQuery.all().withParent(parent).withLimit(200))
                        .runs();
                assertThat(recorded).as("children recorded by " + parent).hasSize(CHILDREN);
                assertThat(children)
                        .as("children of " + parent)
                        .extracting(RunInfo::runId)
                        .containsExactlyInAnyOrderElementsOf(recorded);
                assertThat(children).extracting(RunInfo::status).containsOnly(RunStatus.COMPLETED);
            }
        }
        Set<String> worked = Files.readAllLines(ledger).stream()
                .map(l -> l.substring("work ".length()))
                .collect(Collectors.toSet());
        assertThat(worked).as("every child did its work").hasSize(PARENTS * CHILDREN);
    }

    /** Child runs in the SQLite file, read directly: opening it as a world would take it over. */
    private static int childRowsIn(Path db) throws java.sql.SQLException {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db);
                java.sql.Statement s = c.createStatement();
                java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM runs WHERE parent_run_id IS NOT NULL")) {
            return rs.next() ? rs.getInt(1) : -1;
        }
    }
}
