package io.worldflow.world.local;

import io.worldflow.RunStatus;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.Lease;
import io.worldflow.spi.TurnEnd;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class GroupCommitTest extends LocalWorldTestSupport {

    private static final int RUNS = 500;
    private static final int CONFLICTING = 250;

    @Test
    void oneCallCommitsFiveHundredAppendsAndAConflictDoesNotAffectTheOthers() {
        for (int i = 0; i < RUNS; i++) {
            create(id(i));
        }
        List<Append> appends = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            long expected = i == CONFLICTING ? 5 : 1;
            appends.add(markerAppend(id(i), expected, 3, RunStatus.RUNNING));
        }

        List<AppendResult> results = world.eventLog().append(appends);

        assertThat(results).hasSize(RUNS);
        for (int i = 0; i < RUNS; i++) {
            if (i == CONFLICTING) {
                assertThat(results.get(i)).isEqualTo(new AppendResult(false, 1, false));
                assertThat(world.eventLog().read(id(i), 0)).hasSize(1);
            } else {
                assertThat(results.get(i)).isEqualTo(new AppendResult(true, 4, false));
            }
        }
        assertThat(world.eventLog().read(id(499), 0)).hasSize(4);
        assertThat(world.runQueries().countByStatus(io.worldflow.RunQuery.all()))
                .containsEntry(RunStatus.RUNNING, (long) RUNS - 1)
                .containsEntry(RunStatus.PENDING, 1L);
    }

    @Test
    void appendsToTheSameRunInOneBatchApplyInOrder() {
        create("r1");
        create("r2");
        List<AppendResult> results = world.eventLog()
                .append(List.of(
                        markerAppend("r1", 1, 2, RunStatus.RUNNING),
                        markerAppend("r2", 1, 1, RunStatus.RUNNING),
                        markerAppend("r1", 3, 1, RunStatus.SLEEPING),
                        markerAppend("r1", 3, 1, RunStatus.WAITING),
                        markerAppend("ghost", 1, 1, RunStatus.RUNNING)));

        assertThat(results)
                .containsExactly(
                        new AppendResult(true, 3, false),
                        new AppendResult(true, 2, false),
                        new AppendResult(true, 4, false),
                        new AppendResult(false, 4, false),
                        AppendResult.missing());
        assertThat(world.runQueries().get("r1").orElseThrow().status()).isEqualTo(RunStatus.SLEEPING);
        assertThat(world.eventLog().read("r1", 0)).hasSize(4);
    }

    @Test
    void turnEndsOfABatchAreAllApplied() {
        int runs = 200;
        for (int i = 0; i < runs; i++) {
            create(id(i));
        }
        Map<String, Lease> leases = world.taskQueue().lease("w", Set.of(QUEUE), runs, Duration.ofMinutes(1)).stream()
                .collect(Collectors.toMap(Lease::runId, Function.identity()));
        assertThat(leases).hasSize(runs);
        List<Append> appends = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            Instant wake = now().plusSeconds(10 + i);
            appends.add(markerAppend(id(i), 1, RunStatus.SLEEPING, new TurnEnd(leases.get(id(i)), wake)));
        }

        world.eventLog().append(appends);

        assertThat(world.taskQueue().nextDue(Set.of(QUEUE))).contains(now().plusSeconds(10));
        clock.advance(Duration.ofSeconds(10 + runs));
        List<Lease> again = world.taskQueue().lease("w", Set.of(QUEUE), runs, Duration.ofMinutes(1));
        assertThat(again)
                .hasSize(runs)
                .isSortedAccordingTo(
                        Comparator.comparing(l -> Integer.parseInt(l.runId().substring(4))))
                .allSatisfy(l -> assertThat(l.deliveries()).isEqualTo(1));
    }

    private static String id(int i) {
        return "run-" + i;
    }
}
