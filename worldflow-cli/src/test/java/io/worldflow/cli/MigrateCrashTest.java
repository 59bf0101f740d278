package io.worldflow.cli;

import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.StepStarted;
import io.worldflow.event.TimerScheduled;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.Append;
import io.worldflow.spi.NewRun;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code worldflow migrate} of ten thousand runs from a local world to Postgres, killed (SIGKILL) in the middle and run
 * again: every run arrives once, with the same timeline, and the second run says how many it found there already.
 */
class MigrateCrashTest {

    private static final int RUNS = 10_000;
    private static final int SLEEPING_EVERY = 50;

    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void tenThousandRunsArriveOnceWithTheirTimelinesAfterAKillInTheMiddle() throws Exception {
        Path db = dir.resolve("dev.db");
        seed(db);
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
            String url = "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres";
            Map<String, String> postgres = Map.of(
                    "worldflow.world",
                    "postgres",
                    "worldflow.postgres.url",
                    url,
                    "worldflow.postgres.user",
                    "postgres");
            List<String> cmd = ChildCli.jvm(List.of());
            cmd.add(WorldflowCli.class.getName());
            cmd.addAll(List.of(
                    "migrate",
                    "--from",
                    "local",
                    "--from-p",
                    "worldflow.local.path=" + db,
                    "--to",
                    "postgres",
                    "--to-p",
                    "worldflow.postgres.url=" + url,
                    "--to-p",
                    "worldflow.postgres.user=postgres",
                    "--batch",
                    "100"));

            long copiedBeforeKill;
            try (Worldflow target = Worldflow.builder().properties(postgres).build()) {
                Process first = new ProcessBuilder(cmd)
                        .redirectErrorStream(true)
                        .redirectOutput(dir.resolve("first.txt").toFile())
                        .start();
                long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                while (count(target) < RUNS / 5 && first.isAlive() && System.nanoTime() < end) {
                    Thread.sleep(20);
                }
                assertThat(first.isAlive())
                        .as("still copying when it is killed")
                        .isTrue();
                first.destroyForcibly(); // SIGKILL: no shutdown hook, a batch cut anywhere
                first.waitFor();
                copiedBeforeKill = count(target);
            }
            assertThat(copiedBeforeKill).isBetween((long) RUNS / 5, (long) RUNS - 1);

            Process second = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("second.txt").toFile())
                    .start();
            assertThat(second.waitFor())
                    .as(java.nio.file.Files.readString(dir.resolve("second.txt")))
                    .isZero();
            String printed = java.nio.file.Files.readString(dir.resolve("second.txt"));
            java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                            "(\\d+) copied and verified, (\\d+) there already, 0 refused")
                    .matcher(printed);
            assertThat(m.find()).as(printed).isTrue();
            long copiedNow = Long.parseLong(m.group(1));
            long there = Long.parseLong(m.group(2));
            assertThat(copiedNow + there).isEqualTo(RUNS);
            // the runs of the batch the kill cut are finished now; every run copied before is left alone
            assertThat(there).isBetween(copiedBeforeKill - 100, copiedBeforeKill);

            try (Worldflow source = Worldflow.builder()
                            .property("worldflow.local.path", db.toString())
                            .build();
                    Worldflow target = Worldflow.builder().properties(postgres).build()) {
                assertThat(count(target)).isEqualTo(RUNS);
                for (int i = 0; i < RUNS; i++) {
                    String id = id(i);
                    List<Event> moved = target.events(id);
                    assertThat(moved).as(id).isEqualTo(source.events(id));
                    assertThat(target.world().eventLog().storedLog(id).head())
                            .as(id)
                            .isEqualTo(source.world().eventLog().storedLog(id).head());
                }
                assertThat(target.counts(RunQuery.all()).get(RunStatus.SLEEPING))
                        .isEqualTo((long) RUNS / SLEEPING_EVERY);
            }
        }
    }

    private static long count(Worldflow wf) {
        return wf.counts(RunQuery.all()).values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    private static String id(int i) {
        return String.format("run-%05d", i);
    }

    /** Ten thousand runs as a worker leaves them: most completed after a step, some asleep on a timer. */
    private static void seed(Path db) {
        JsonCodec codec = new JsonCodec();
        Instant at = Instant.parse("2026-11-01T00:00:00Z");
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", db.toString())
                .build()) {
            for (int from = 0; from < RUNS; from += 500) {
                List<NewRun> runs = new ArrayList<>();
                List<Append> appends = new ArrayList<>();
                for (int i = from; i < from + 500; i++) {
                    String id = id(i);
                    runs.add(new NewRun(id, "seeded", codec.encode("order " + i, "input"), at, at, null, "default", 0));
                    Payload result = codec.encode("done " + i, "result");
                    List<Event> events = new ArrayList<>(List.of(
                            new StepScheduled(id, 1, at, "work", "work"),
                            new StepStarted(id, 2, at, "work", 1),
                            new StepCompleted(id, 3, at, "work", 1, result)));
                    boolean sleeps = i % SLEEPING_EVERY == 0;
                    events.add(
                            sleeps
                                    ? new TimerScheduled(id, 4, at, "nap", "nap", at.plus(Duration.ofDays(30)))
                                    : new WorkflowCompleted(id, 4, at, result));
                    appends.add(new Append(id, 1, events, sleeps ? RunStatus.SLEEPING : RunStatus.COMPLETED));
                }
                wf.world().eventLog().createAll(runs);
                wf.world().eventLog().append(appends);
            }
            RunInfo last = wf.run(id(RUNS - 1)).orElseThrow();
            assertThat(last.status()).isEqualTo(RunStatus.COMPLETED);
        }
    }
}
