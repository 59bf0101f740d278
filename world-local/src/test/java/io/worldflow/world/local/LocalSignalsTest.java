package io.worldflow.world.local;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunFinishedException;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStatus;
import io.worldflow.event.WorkflowFailed;
import io.worldflow.spi.Append;
import io.worldflow.spi.Lease;
import io.worldflow.spi.PendingSignal;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LocalSignalsTest extends LocalWorldTestSupport {

    @Test
    void pendingSignalsComeInArrivalOrder() {
        create("r1");
        Payload a = new Payload("{\"ok\":true}", "com.acme.Approval");
        long first = world.signals().send("r1", "approval", a);
        clock.advance(Duration.ofSeconds(1));
        long second = world.signals().send("r1", "other", null);
        long third = world.signals().send("r1", "approval", new Payload("2", "java.lang.Integer"));

        List<PendingSignal> pending = world.signals().pending("r1");

        assertThat(pending).extracting(PendingSignal::id).containsExactly(first, second, third);
        assertThat(first).isLessThan(second);
        assertThat(second).isLessThan(third);
        assertThat(pending.getFirst()).isEqualTo(new PendingSignal(first, "r1", "approval", a, now().minusSeconds(1)));
        assertThat(pending.get(1).payload()).isEqualTo(Payload.NULL);
        assertThat(world.signals().pending("ghost")).isEmpty();
    }

    @Test
    void sendingToAnUnknownRunFails() {
        assertThatThrownBy(() -> world.signals().send("ghost", "go", Payload.NULL))
                .isInstanceOf(RunNotFoundException.class)
                .hasMessageContaining("ghost");
    }

    @Test
    void sendingToAFinishedRunFailsAndStoresNothing() {
        create("r1");
        world.eventLog()
                .append(List.of(new Append(
                        "r1",
                        1,
                        List.of(new WorkflowFailed("r1", 1, now(), ErrorInfo.of("x.Boom", "boom"))),
                        RunStatus.FAILED)));

        assertThatThrownBy(() -> world.signals().send("r1", "go", Payload.NULL))
                .isInstanceOfSatisfying(
                        RunFinishedException.class, e -> assertThat(e.status()).isEqualTo(RunStatus.FAILED))
                .hasMessageContaining("signal");
        assertThat(world.signals().pending("r1")).isEmpty();
    }

    @Test
    void aSignalMakesAWaitingRunDueAtOnce() {
        create("r1");
        Lease lease = world.taskQueue()
                .lease("w", Set.of(QUEUE), 1, Duration.ofSeconds(30))
                .getFirst();
        world.taskQueue().complete(lease, now().plus(Duration.ofDays(2)));
        clock.advance(Duration.ofMinutes(5));

        world.signals().send("r1", "go", Payload.NULL);

        assertThat(world.taskQueue().nextDue(Set.of(QUEUE))).contains(now());
    }
}
