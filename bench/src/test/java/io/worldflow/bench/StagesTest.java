package io.worldflow.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class StagesTest {

    @Test
    void eachHopIsTheTimeSinceTheMarkBeforeIt() {
        // submit 0 → 2,000 µs; notice at 2,500; leased 3,000; commits 4,000, 5,000, 7,000; seen 9,000
        Map<String, Double> f = Stages.w2(
                List.of(new Stages.Driven("r", 0, 2_000, 9_000)),
                "2500",
                id -> id.equals("r") ? "3000;5000,4000,7000;" : ";;");

        assertThat(f)
                .containsEntry("w2.stage.submit.p50", 2.0)
                .containsEntry("w2.stage.notice.p50", 0.5)
                .containsEntry("w2.stage.lease.p50", 0.5)
                .containsEntry("w2.stage.first_commit.p50", 1.0)
                .containsEntry("w2.stage.last_commit.p50", 3.0)
                .containsEntry("w2.stage.seen.p50", 2.0)
                .containsEntry("w2.stage.noticed", 1.0);
    }

    @Test
    void aRunLeasedBeforeAnyNoticeHasNoNoticeHopAndAMarkBeforeItsPredecessorIsAZeroHop() {
        // leased as it was created, inside the submit call; the only notice came after the lease
        Map<String, Double> f =
                Stages.w2(List.of(new Stages.Driven("r", 1_000, 3_000, 8_000)), "2000,6000", id -> "1500;4000,5000;");

        assertThat(f)
                .containsEntry("w2.stage.submit.p50", 2.0)
                .doesNotContainKey("w2.stage.notice.p50")
                .containsEntry("w2.stage.lease.p50", 0.0)
                .containsEntry("w2.stage.first_commit.p50", 1.0)
                .containsEntry("w2.stage.noticed", 0.0);
    }

    @Test
    void w4HopsRunFromTheDueTimeItsSleepAsked() {
        // first turn leased at 0 and ended at 1,000 asking to wake at 1,001,000; leased again 20 ms ahead; ended
        // 3 ms after its due time. A run without a wake-up is left out.
        Map<String, Double> f = Stages.w4(
                List.of("a", "b"),
                new double[] {2, 0},
                id -> id.equals("a") ? "0,981000;1000,1004000;1001000" : "0;1000;");

        assertThat(f).containsEntry("w4.stage.lease.p50", -20.0).containsEntry("w4.stage.end.p50", 3.0);
        // "a" is the latest run: the tail's figures are its own
        assertThat(f).containsEntry("w4.tail.lease", -20.0).containsEntry("w4.tail.end", 3.0);
    }

    @Test
    void theTailIsTheRunsAtLeastAsLateAsTheP99() {
        // a hundred runs due at 1 s, leased 40 ms ahead and ended 5 ms after; the last two 60 ms late, leased 30 ms
        // late
        List<String> ids = new ArrayList<>();
        double[] late = new double[100];
        for (int i = 0; i < 100; i++) {
            ids.add("r" + i);
            late[i] = i >= 98 ? 60 : 1;
        }
        Map<String, Double> f = Stages.w4(ids, late, id -> {
            boolean tail = Integer.parseInt(id.substring(1)) >= 98;
            return tail ? "0,1030000;10,1070000;1000000" : "0,960000;10,1005000;1000000";
        });

        assertThat(f)
                .containsEntry("w4.stage.lease.p50", -40.0)
                .containsEntry("w4.tail.lease", 30.0)
                .containsEntry("w4.tail.end", 70.0);
    }
}
