package io.worldflow.world.aws;

import io.worldflow.RunHandle;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.ScheduleSpec;
import io.worldflow.SearchAttributes;
import io.worldflow.SearchKey;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The number of shards grows without rewriting anything: what was written with one shard (runs waiting for their
 * first turn, their search items, a schedule) is listed, counted, found, leased and finished by a world with sixteen,
 * beside what that world writes itself.
 */
class ShardGrowthTest {

    private static final Workflow<String, String> ECHO =
            Workflow.define("growth.echo", String.class, (ctx, in) -> ctx.step("echo", () -> in));
    private static final SearchKey<String> TIER = SearchKey.forString("tier");

    @Test
    void runsWrittenWithOneShardAreListedFoundAndRunWithSixteen() {
        try (AwsWorlds worlds = new AwsWorlds()) {
            List<String> before = new ArrayList<>();
            try (Worldflow one = worldflow(worlds.open(shards(worlds, 1)), worlds)) {
                for (int i = 0; i < 20; i++) {
                    before.add(one.start(ECHO, "old " + i, gold()).id());
                }
                one.schedules().create(ScheduleSpec.every("nightly", Duration.ofHours(24), ECHO.name(), "night"));
            }

            try (Worldflow sixteen = worldflow(worlds.open(shards(worlds, 16)), worlds)) {
                RunQuery all = RunQuery.all().withLimit(100);
                assertThat(sixteen.runs(all).runs()).hasSize(20);
                assertThat(sixteen.counts(all).get(RunStatus.PENDING)).isEqualTo(20);
                assertThat(sixteen.runs(all.withAttribute(TIER, "gold")).runs()).hasSize(20);
                assertThat(sixteen.schedules().list())
                        .extracting(s -> s.spec().id())
                        .containsExactly("nightly");

                List<RunHandle<String>> after = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    after.add(sixteen.start(ECHO, "new " + i, gold()));
                }
                sixteen.startWorker(WorkerOptions.defaults()
                        .withHandleSigterm(false)
                        .withPollInterval(Duration.ofMillis(50))
                        .withShutdownGrace(Duration.ofSeconds(2)));
                for (String id : before) {
                    assertThat(sixteen.handle(id, String.class).result(Duration.ofSeconds(30)))
                            .startsWith("old ");
                }
                for (RunHandle<String> run : after) {
                    assertThat(run.result(Duration.ofSeconds(30))).startsWith("new ");
                }
                assertThat(sixteen.counts(all).get(RunStatus.COMPLETED)).isEqualTo(40);
                assertThat(sixteen.runs(all.withStatuses(RunStatus.COMPLETED).withAttribute(TIER, "gold"))
                                .runs())
                        .hasSize(40);
            }
        }
    }

    @Test
    void aWorkflowNameHoldingTheShardSeparatorIsRefusedAndNothingIsWritten() {
        try (AwsWorlds worlds = new AwsWorlds()) {
            Workflow<String, String> odd = Workflow.define("odd\u001Ename", String.class, (ctx, in) -> in);
            World world = worlds.open(shards(worlds, 4));
            try (Worldflow wf = Worldflow.builder()
                    .world(world)
                    .clock(worlds.clock)
                    .register(odd)
                    .build()) {
                assertThatThrownBy(() -> wf.start(odd, "x", StartOptions.id("refused")))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("U+001E");
                assertThat(world.runQueries().get("refused")).isEmpty();
            }
        }
    }

    private static StartOptions gold() {
        return StartOptions.defaults().withSearchAttributes(SearchAttributes.of(TIER, "gold"));
    }

    private static WorldConfig shards(AwsWorlds worlds, int n) {
        return worlds.config().with(AwsWorldProvider.INDEX_SHARDS, String.valueOf(n));
    }

    private static Worldflow worldflow(World world, AwsWorlds worlds) {
        return Worldflow.builder()
                .world(world)
                .clock(worlds.clock)
                .register(ECHO)
                .build();
    }
}
