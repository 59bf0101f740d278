package io.worldflow.world.aws;

import io.worldflow.QueueSpec;
import io.worldflow.RunHandle;
import io.worldflow.ScheduleSpec;
import io.worldflow.SearchAttributes;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import io.worldflow.world.aws.internal.AwsWorld;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The capacity model's counts: a uniform load (runs of one workflow in one queue, each with the same search attribute
 * value, and schedules and queue records) goes through the world on DynamoDB Local while {@link IndexWrites} counts the
 * writes each index partition key takes. DynamoDB writes one partition key of an index at about 1,000 writes a second,
 * so the share of an index's writes its hottest key takes bounds the table: with one shard every run writes the same
 * keys, with N the hottest key takes about 1/N.
 */
class HotPartitionTest {

    private static final Workflow<String, String> ONE_STEP = Workflow.define(
            "capacity.one", String.class, (ctx, in) -> ctx.step("a", () -> in) + ctx.step("b", () -> "!"));

    /** The indexes a run, a schedule and a queue record write to; each must be measured. */
    private static final List<String> WRITTEN = List.of(
            "runs/byCreated",
            "runs/byStatus",
            "runs/byWorkflow",
            "runs/byDue",
            "search/byValue",
            "schedules/byId",
            "schedules/byWake",
            "queues/byId");

    @Test
    void withSixteenShardsNoKeyTakesMoreThanTwoSixteenthsOfAnIndexsWrites() {
        int shards = 16;
        Map<String, IndexWrites.Partitions> measured = measure(shards, 400, 200);
        assertThat(measured).containsKeys(WRITTEN.toArray(String[]::new));
        for (IndexWrites.Partitions p : measured.values()) {
            if (p.total() >= 100) {
                assertThat(p.hottestShare())
                        .as("share of %s's %d writes on its hottest key %s", p.index(), p.total(), p.hottest())
                        .isLessThanOrEqualTo(2.0 / shards);
                assertThat(p.writes()).as("keys of %s", p.index()).hasSizeGreaterThanOrEqualTo(shards);
            }
        }
    }

    @Test
    void withOneShardEveryRunWritesTheSameKeys() {
        Map<String, IndexWrites.Partitions> measured = measure(1, 100, 50);
        assertThat(measured).containsKeys(WRITTEN.toArray(String[]::new));
        for (String index : List.of("runs/byCreated", "runs/byWorkflow", "runs/byDue", "search/byValue")) {
            assertThat(measured.get(index).hottestShare()).as(index).isEqualTo(1.0);
        }
        assertThat(measured.get("schedules/byId").hottestShare()).isEqualTo(1.0);
    }

    /** Runs {@code runs} runs and writes {@code records} schedules and queue records, counting index writes. */
    private static Map<String, IndexWrites.Partitions> measure(int shards, int runs, int records) {
        try (AwsWorlds worlds = new AwsWorlds();
                DynamoDbClient reader = Emulators.shared().dynamoClient()) {
            IndexWrites writes = new IndexWrites(reader);
            AwsWorld world = worlds.openSharded(shards, writes);
            try (Worldflow wf = Worldflow.builder()
                    .world(world)
                    .clock(worlds.clock)
                    .register(ONE_STEP)
                    .build()) {
                wf.startWorker(WorkerOptions.defaults()
                        .withHandleSigterm(false)
                        .withPollInterval(Duration.ofMillis(50))
                        .withShutdownGrace(Duration.ofSeconds(2))
                        .withWorkerId("capacity"));
                assertThat(wf.start(ONE_STEP, "warm-up").result(Duration.ofSeconds(20)))
                        .isEqualTo("warm-up!");
                writes.start();

                List<RunHandle<String>> started = new ArrayList<>();
                for (int i = 0; i < runs; i++) {
                    started.add(wf.start(
                            ONE_STEP,
                            "r" + i,
                            StartOptions.defaults()
                                    .withSearchAttributes(
                                            SearchAttributes.empty().withValue("tier", "gold"))));
                }
                for (int i = 0; i < records; i++) {
                    wf.schedules()
                            .create(ScheduleSpec.every("s" + i, Duration.ofHours(1), ONE_STEP.name(), "scheduled"));
                    wf.queues().define(QueueSpec.named("q" + i));
                }
                for (RunHandle<String> run : started) {
                    assertThat(run.result(Duration.ofSeconds(60))).endsWith("!");
                }
            } finally {
                world.close();
            }
            Map<String, IndexWrites.Partitions> out = new TreeMap<>();
            System.out.printf(
                    "index writes with %d shard(s), %d runs, %d schedules and queue records:%n", shards, runs, records);
            for (IndexWrites.Partitions p : writes.partitions()) {
                String index = p.index().substring(p.index().indexOf('_') + 1);
                out.put(index, p);
                System.out.printf(
                        "  %-18s %6d writes, %3d keys, hottest %-22s %5.1f%%%n",
                        index, p.total(), p.writes().size(), p.hottest().getKey(), 100 * p.hottestShare());
            }
            return out;
        }
    }
}
