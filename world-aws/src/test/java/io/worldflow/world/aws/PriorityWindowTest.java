package io.worldflow.world.aws;

import io.worldflow.RunHandle;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.Lease;
import io.worldflow.spi.World;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bound on priority the world-aws README documents: leasing reads the 100 earliest available turns of each shard
 * of a queue and takes the highest priority among them, so a turn of higher priority goes ahead of lower ones once it
 * is among the 100 earliest of its shard. More shards widen the window: 150 turns ahead of it in one shard hide it
 * until 51 of them are leased; spread over 16 shards they do not hide it at all.
 */
class PriorityWindowTest {

    private static final Workflow<String, String> NOTHING =
            Workflow.define("priority.nothing", String.class, (ctx, in) -> in);

    private static final int AHEAD = 150;

    @Test
    void withOneShardAnUrgentTurnIsLeasedOnceAmongTheHundredEarliest() {
        assertThat(leasesBeforeTheUrgentOne(1)).isEqualTo(AHEAD - 99);
    }

    @Test
    void withSixteenShardsAnUrgentTurnBehindAHundredAndFiftyIsLeasedFirst() {
        assertThat(leasesBeforeTheUrgentOne(16)).isZero();
    }

    /** Starts {@value #AHEAD} runs of priority 0, then one of priority 10, and leases one turn at a time. */
    private static int leasesBeforeTheUrgentOne(int shards) {
        try (AwsWorlds worlds = new AwsWorlds()) {
            World world = worlds.open(worlds.config().with(AwsWorldProvider.INDEX_SHARDS, String.valueOf(shards)));
            try (Worldflow wf = Worldflow.builder()
                    .world(world)
                    .clock(worlds.clock)
                    .register(NOTHING)
                    .build()) {
                for (int i = 0; i < AHEAD; i++) {
                    wf.start(NOTHING, "routine " + i);
                    worlds.clock.advance(Duration.ofMillis(1));
                }
                RunHandle<String> urgent =
                        wf.start(NOTHING, "urgent", StartOptions.defaults().withPriority(10));
                for (int leased = 0; leased <= AHEAD; leased++) {
                    List<Lease> one = world.taskQueue().lease("w", Set.of("default"), 1, Duration.ofMinutes(5));
                    assertThat(one).as("a due turn to lease").hasSize(1);
                    if (one.getFirst().runId().equals(urgent.id())) {
                        return leased;
                    }
                }
                throw new AssertionError("the urgent run was never leased");
            }
        }
    }
}
