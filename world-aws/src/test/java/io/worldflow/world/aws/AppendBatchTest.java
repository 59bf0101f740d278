package io.worldflow.world.aws;

import io.worldflow.RunStatus;
import io.worldflow.event.StepScheduled;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.World;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A group commit may hold several appends of one run: they are applied in order, others in parallel. */
class AppendBatchTest {

    private final AwsWorlds worlds = new AwsWorlds();
    private final World world = worlds.open();

    @AfterEach
    void close() {
        worlds.close();
    }

    private void create(String id) {
        world.eventLog()
                .create(new NewRun(
                        id,
                        "batch.v1",
                        worlds.codec.encode(id, "input"),
                        worlds.clock.instant(),
                        worlds.clock.instant(),
                        null,
                        "default",
                        0));
    }

    private Append step(String runId, long seq) {
        return new Append(
                runId,
                seq,
                List.of(new StepScheduled(runId, seq, worlds.clock.instant(), "s" + seq, "s")),
                RunStatus.RUNNING);
    }

    @Test
    void consecutiveAppendsOfOneRunInOneBatchAreAppliedInOrder() {
        create("a");
        create("b");

        List<AppendResult> results =
                world.eventLog().append(List.of(step("a", 1), step("b", 1), step("a", 2), step("a", 3), step("b", 2)));

        assertThat(results)
                .containsExactly(
                        new AppendResult(true, 2, false),
                        new AppendResult(true, 2, false),
                        new AppendResult(true, 3, false),
                        new AppendResult(true, 4, false),
                        new AppendResult(true, 3, false));
        assertThat(world.eventLog().read("a", 1)).extracting(e -> e.seq()).containsExactly(1L, 2L, 3L);
        assertThat(world.eventLog().read("b", 1)).extracting(e -> e.seq()).containsExactly(1L, 2L);
    }
}
