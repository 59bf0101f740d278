package io.worldflow.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FigureTest {

    @Test
    void percentilesAreNearestRank() {
        double[] v = new double[200];
        for (int i = 0; i < v.length; i++) {
            v[i] = 200 - i; // 200 … 1, unsorted on purpose
        }
        assertThat(Workloads.Stats.percentile(v, 50)).isEqualTo(100.0);
        assertThat(Workloads.Stats.percentile(v, 99)).isEqualTo(198.0);
        assertThat(Workloads.Stats.percentile(new double[] {7}, 99)).isEqualTo(7.0);
    }

    @Test
    void mediansAndRangesOverRepeats() {
        assertThat(Results.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
        assertThat(Results.median(List.of(4.0, 1.0, 2.0, 3.0))).isEqualTo(2.5);
        assertThat(Results.min(List.of(3.0, 1.0))).isEqualTo(1.0);
        assertThat(Results.max(List.of(3.0, 1.0))).isEqualTo(3.0);
    }

    @Test
    void goalsFollowTheDirectionOfBetter() {
        Figure throughput = Figure.byKey("w1.throughput").orElseThrow();
        assertThat(throughput.meets(3000)).contains(true);
        assertThat(throughput.meets(2999)).contains(false);
        assertThat(throughput.bestPeer().orElseThrow().getKey()).isEqualTo(Figure.RESTATE);
        Figure p99 = Figure.byKey("w2.p99").orElseThrow();
        assertThat(p99.meets(10)).contains(true);
        assertThat(p99.meets(11)).contains(false);
        assertThat(Figure.byKey("w1.enqueue").orElseThrow().meets(1)).isEmpty();
        assertThat(Figure.byKey("cost.wal_bytes")
                        .orElseThrow()
                        .bestPeer()
                        .orElseThrow()
                        .getKey())
                .isEqualTo(Figure.DBOS);
    }

    @Test
    void unknownWorldsAreRefusedNamingTheKnownOnes() {
        assertThatThrownBy(() -> Targets.start("mars"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'mars'")
                .hasMessageContaining("[aws, local, postgres]");
    }

    @Test
    void theMainSizeOfOneWorkloadCanBeSet() {
        assertThat(Sizes.defaults().withMain(Workload.W1, 7).w1Runs()).isEqualTo(7);
        assertThat(Sizes.defaults().withMain(Workload.W3, 9).w3Branches()).isEqualTo(9);
        assertThat(Sizes.defaults().withMain(Workload.SCALE, 11).sleepers()).isEqualTo(11);
        assertThatThrownBy(() -> Sizes.defaults().withMain(Workload.W2, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
