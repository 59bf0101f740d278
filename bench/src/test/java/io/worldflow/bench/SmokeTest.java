package io.worldflow.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole harness end to end with tiny sizes, on the local world and on embedded PostgreSQL (the aws world over its
 * emulators: {@link AwsSmokeTest}): every workload runs with a real worker JVM, every run completes, every figure is
 * there, the JSON and the PNG are written.
 * Asserts behaviour, never timing.
 */
class SmokeTest {

    static final List<String> EVERY_WORLD = List.of(
            "w1.enqueue",
            "w1.throughput",
            "w1.worker_peak_rss",
            "w1.worker_cpu",
            "w1.worker_jit",
            "w2.p50",
            "w2.p99",
            "w3.single_cold",
            "w3.single_warm",
            "w3.batch_wall",
            "w5.single_cold",
            "w5.single_warm",
            "w5.batch_wall",
            "w6.p50",
            "w6.p99",
            "loop.first_tenth",
            "loop.last_tenth",
            "loop.ratio",
            "w4.wall",
            "w4.stage.end.p50",
            "w2.stage.submit.p50",
            "w2.stage.first_commit.p50",
            "w2.stage.last_commit.p50",
            "scale.steps_small",
            "scale.steps_large",
            "scale.ratio",
            "scale.replay_events",
            "scale.sleepers_heap",
            "scale.sleepers_rss");
    /**
     * Figures where 0 is a fine answer: lateness after a timer's due time, in whole milliseconds; replay times; and the
     * hop from the worker's last commit to the driver seeing the run end, which is 0 when the world's notice of the end
     * reaches the driver before the worker's own commit call has returned (a race of two processes woken by one commit,
     * which a cold worker can lose in most of the smoke test's twenty runs).
     */
    static final List<String> NOT_NEGATIVE =
            List.of("w4.p50", "w4.p99", "scale.replay_cold", "scale.replay", "w2.stage.seen.p50");

    static final List<String> POSTGRES_ONLY =
            List.of("cost.commits", "cost.wal_bytes", "cost.wal_syncs", "cost.throughput");

    @Test
    @Timeout(360)
    void everyWorkloadOnLocalAndPostgresProducesItsFigures(@TempDir Path dir) throws Exception {
        Sizes sizes = Sizes.smoke();
        Harness harness =
                new Harness(List.of("local", "postgres"), Workload.DEFAULT, 1, sizes, false, dir.resolve("logs"));
        Results results = harness.run();

        assertThat(results.failures()).isEmpty();
        assertThat(results.worlds()).containsExactly("local", "postgres");
        for (String world : results.worlds()) {
            assertEveryFigure(results, world);
        }
        for (String key : POSTGRES_ONLY) {
            assertThat(results.values("postgres", key))
                    .as(key)
                    .hasSize(1)
                    .allSatisfy(v -> assertThat(v).isPositive());
            assertThat(results.values("local", key)).as(key).isEmpty();
        }
        // on Postgres the worker hears of a run from the world's notice (LISTEN/NOTIFY), before it leases it
        assertThat(results.values("postgres", "w2.stage.noticed"))
                .singleElement()
                .satisfies(v -> assertThat(v).isPositive());
        // the replayed history is as long as asked: 3 events per step
        assertThat(results.values("postgres", "scale.replay_events").getFirst())
                .isGreaterThanOrEqualTo(3.0 * sizes.historySteps());

        Report report = harness.report(results);
        Path json = dir.resolve("out/bench-results.json");
        report.writeJson(json);
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertThat(root.has("generatedAt")).isTrue();
        assertThat(root.get("repeat").asInt()).isEqualTo(1);
        assertThat(root.get("sizes").get("w1Runs").asInt()).isEqualTo(sizes.w1Runs());
        assertThat(root.get("failures")).isEmpty();
        Set<String> seen = new HashSet<>();
        for (JsonNode f : root.get("figures")) {
            assertThat(f.has("key")
                            && f.has("world")
                            && f.has("unit")
                            && f.has("values")
                            && f.has("median")
                            && f.has("min")
                            && f.has("max")
                            && f.has("goal"))
                    .as(f.toString())
                    .isTrue();
            assertThat(f.get("min").asDouble()).isLessThanOrEqualTo(f.get("max").asDouble());
            seen.add(f.get("world").asText() + " " + f.get("key").asText());
        }
        assertThat(seen)
                .contains(
                        "local w1.throughput",
                        "postgres w1.throughput",
                        "postgres cost.wal_bytes",
                        "local w2.p99",
                        "postgres w4.p99",
                        "local scale.sleepers_heap");
        JsonNode throughput = findFigure(root, "postgres", "w1.throughput");
        assertThat(throughput.get("goal").asDouble()).isEqualTo(3000.0);
        assertThat(throughput.get("bestPeer").get("name").asText()).isEqualTo("Restate");

        Path png = dir.resolve("out/bench-chart.png");
        Chart.write(results, png);
        assertThat(Files.size(png)).isPositive();
        BufferedImage img = ImageIO.read(png.toFile());
        assertThat(img).isNotNull();
        assertThat(img.getWidth()).isPositive();
        assertThat(img.getHeight()).isPositive();

        report.print(System.out);
    }

    /**
     * W7 and W8, which {@code all} runs only when named, at the smoke sizes on the local world (one worker) and on
     * Postgres (W8 with two): every fire time of the window started exactly one run, and every figure is there.
     */
    @Test
    @Timeout(240)
    void schedulesAndTheRateLimitProduceTheirFigures(@TempDir Path dir) {
        Sizes sizes = Sizes.smoke();
        Harness harness = new Harness(
                List.of("local", "postgres"), List.of(Workload.W7, Workload.W8), 1, sizes, false, dir.resolve("logs"));
        Results results = harness.run();

        assertThat(results.failures()).isEmpty();
        for (String world : List.of("local", "postgres")) {
            assertThat(results.values(world, "w7.runs"))
                    .as(world)
                    .containsExactly((double) sizes.w7Schedules() * sizes.w7Seconds());
            assertThat(results.values(world, "w7.twice")).as(world).containsExactly(0.0);
            assertThat(results.values(world, "w7.skipped")).as(world).containsExactly(0.0);
            for (String key : List.of("w7.p50", "w7.p99", "w7.max", "w8.worst_deviation")) {
                assertThat(results.values(world, key))
                        .as(world + " " + key)
                        .hasSize(1)
                        .allSatisfy(v -> assertThat(v).isNotNegative());
            }
            for (String key : List.of("w8.window_median", "w8.window_min", "w8.window_max", "w8.rate")) {
                assertThat(results.values(world, key))
                        .as(world + " " + key)
                        .hasSize(1)
                        .allSatisfy(v -> assertThat(v).isPositive());
            }
        }
    }

    /** Every workload's figures of {@code world} are there, once each: positive, or not negative where 0 is fine. */
    static void assertEveryFigure(Results results, String world) {
        for (String key : EVERY_WORLD) {
            assertThat(results.values(world, key))
                    .as(world + " " + key)
                    .hasSize(1)
                    .allSatisfy(v -> assertThat(v).isPositive());
        }
        for (String key : NOT_NEGATIVE) {
            assertThat(results.values(world, key))
                    .as(world + " " + key)
                    .hasSize(1)
                    .allSatisfy(v -> assertThat(v).isNotNegative());
        }
    }

    private static JsonNode findFigure(JsonNode root, String world, String key) {
        for (JsonNode f : root.get("figures")) {
            if (f.get("world").asText().equals(world) && f.get("key").asText().equals(key)) {
                return f;
            }
        }
        throw new AssertionError("no figure " + world + " " + key);
    }
}
