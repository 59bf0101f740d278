package io.worldflow.world.local;

import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.spi.Lease;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class RestartTest extends LocalWorldTestSupport {

    @Test
    void everythingSurvivesARestartAndLeasesAreCleared() {
        create("sleeper");
        create("busy");
        create("waiter");
        List<Lease> leases = world.taskQueue().lease("w", Set.of(QUEUE), 3, Duration.ofMinutes(5));
        assertThat(leases).hasSize(3);
        Lease sleeper = find(leases, "sleeper");
        Lease waiter = find(leases, "waiter");
        Instant wake = now().plus(Duration.ofHours(1));
        world.eventLog()
                .append(List.of(
                        markerAppend("sleeper", 1, RunStatus.SLEEPING, new io.worldflow.spi.TurnEnd(sleeper, wake)),
                        markerAppend("waiter", 1, RunStatus.WAITING, new io.worldflow.spi.TurnEnd(waiter, null)),
                        markerAppend("busy", 1, 2, RunStatus.RUNNING)));
        long signal = world.signals().send("waiter", "go", new Payload("\"yes\"", "java.lang.String"));
        world.taskQueue()
                .complete(
                        world.taskQueue()
                                .lease("w", Set.of(QUEUE), 1, Duration.ofMinutes(5))
                                .getFirst(),
                        null);
        world.signals().send("waiter", "later", Payload.NULL);
        RunInfo busyBefore = world.runQueries().get("busy").orElseThrow();

        reopen();

        assertThat(world.runQueries().get("busy")).contains(busyBefore);
        assertThat(world.eventLog().read("busy", 0)).hasSize(3);
        assertThat(world.signals().pending("waiter"))
                .extracting(s -> s.id())
                .startsWith(signal)
                .hasSize(2);
        // "busy" was leased by the previous process: due again at once, not after its lease of 5 minutes
        List<Lease> after = world.taskQueue().lease("w2", Set.of(QUEUE), 10, Duration.ofMinutes(5));
        assertThat(after).extracting(Lease::runId).containsExactlyInAnyOrder("busy", "waiter");
        assertThat(find(after, "busy").deliveries()).isEqualTo(2);
        after.forEach(l -> world.taskQueue().complete(l, null));
        // the timer is still there, due at its time
        assertThat(world.taskQueue().nextDue(Set.of(QUEUE))).contains(wake);
    }

    @Test
    void aTurnRequestedDuringALeaseSurvivesARestart() {
        world.eventLog().create(newRun("r1", "wf", now(), QUEUE, 0));
        Lease lease = world.taskQueue()
                .lease("w", Set.of(QUEUE), 1, Duration.ofMinutes(5))
                .getFirst();
        world.taskQueue().complete(lease, now().plusSeconds(3600));
        world.taskQueue().lease("w", Set.of(QUEUE), 1, Duration.ofMinutes(5));

        reopen();

        assertThat(world.taskQueue().nextDue(Set.of(QUEUE))).contains(now().plusSeconds(3600));
        clock.advance(Duration.ofSeconds(3600));
        assertThat(world.taskQueue().lease("w", Set.of(QUEUE), 1, Duration.ofMinutes(5)))
                .hasSize(1);
    }

    private static Lease find(List<Lease> leases, String runId) {
        return leases.stream().filter(l -> l.runId().equals(runId)).findFirst().orElseThrow();
    }
}
