package io.worldflow.bench;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
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
    void rateWindowsCountWholeSecondsAfterTheFirst() {
        Instant t0 = Instant.parse("2026-01-01T00:00:00.250Z");
        List<Instant> starts = new ArrayList<>();
        for (int i = 0; i < 30; i++) { // a burst of 30 in the first second
            starts.add(t0.plusMillis(i));
        }
        for (int s = 1; s <= 3; s++) { // 10, 12, 9 starts in the next three seconds
            int n = s == 1 ? 10 : s == 2 ? 12 : 9;
            for (int i = 0; i < n; i++) {
                starts.add(t0.plusSeconds(s).plusMillis(i * 50L));
            }
        }
        starts.add(t0.plusSeconds(4).plusMillis(500)); // the last second, cut short: not counted
        PacedWorkloads.Windows w = PacedWorkloads.Windows.of(starts, 10);
        assertThat(w.counts()).containsExactly(10, 12, 9);
        assertThat(w.median()).isEqualTo(10.0);
        assertThat(w.min()).isEqualTo(9.0);
        assertThat(w.max()).isEqualTo(12.0);
        assertThat(w.worstDeviation()).isEqualTo(20.0);
        assertThat(w.rate()).isEqualTo((starts.size() - 1) / 4.5);
        assertThat(Workload.DEFAULT).doesNotContain(Workload.W7, Workload.W8).contains(Workload.W1, Workload.SCALE);
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
