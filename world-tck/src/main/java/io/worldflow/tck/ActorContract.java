package io.worldflow.tck;

import io.worldflow.Actors;
import io.worldflow.QueueInfo;
import io.worldflow.QueueSpec;
import io.worldflow.RetryPolicy;
import io.worldflow.RunStatus;
import io.worldflow.ScheduleSpec;
import io.worldflow.StartOptions;
import io.worldflow.StepOptions;
import io.worldflow.Workflow;
import io.worldflow.event.SignalReceived;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.event.WorkflowRetried;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Who did what: every event caused from outside a run records its actor in the run's log, in every world. A start, a
 * signal, a cancellation, a termination and a retry record the application's identity ({@code
 * Worldflow.builder().actor}) or whom the calling thread acts as ({@code wf.actingAs}); a run a schedule started
 * records the schedule. The actor of a signal and of a cancellation is stored with them until the run's code records
 * them.
 */
public abstract class ActorContract extends WorkflowContractSupport {

    protected ActorContract(WorldConformanceKit kit) {
        super(kit);
    }

    private final AtomicBoolean cardWorks = new AtomicBoolean();

    private final Workflow<String, String> approval = Workflow.define("tck.actor.approval", String.class, (ctx, in) -> {
        ctx.step("prepare", () -> "prepared " + in);
        return ctx.awaitSignal("go", String.class, Duration.ofDays(1)).orElse("timed out");
    });

    private final Workflow<String, String> charge = Workflow.define(
            "tck.actor.charge",
            String.class,
            (ctx, in) -> ctx.step("charge", StepOptions.retry(RetryPolicy.none()), () -> {
                if (!cardWorks.get()) {
                    throw new IllegalStateException("card declined");
                }
                return "charged " + in;
            }));

    private Worldflow billing() {
        wf = Worldflow.builder()
                .world(world)
                .clock(clock)
                .actor("billing-service")
                .register(approval)
                .register(charge)
                .build();
        wf.startWorker(workerOptions());
        return wf;
    }

    @Test
    void startsSignalsCancelsAndRetriesRecordTheApplicationOrWhomTheThreadActsAs() {
        billing();
        wf.start(approval, "a", StartOptions.id("by-app"));
        try (var as = wf.actingAs("user:42")) {
            wf.start(approval, "b", StartOptions.id("by-user"));
            wf.signal("by-app", "go", "yes");
        }
        wf.start(approval, "c", StartOptions.id("canceled"));
        awaitStatus("canceled", RunStatus.WAITING);
        try (var as = wf.actingAs("ops:ana")) {
            wf.cancel("canceled", "customer left");
        }
        wf.start(charge, "d", StartOptions.id("failed"));
        awaitStatus("failed", RunStatus.FAILED);
        cardWorks.set(true);
        wf.retry("failed", "card replaced");

        awaitStatus("by-app", RunStatus.COMPLETED);
        awaitStatus("canceled", RunStatus.CANCELED);
        awaitStatus("failed", RunStatus.COMPLETED);
        assertThat(eventsOf("by-app", WorkflowStarted.class).getFirst().actor()).isEqualTo("billing-service");
        assertThat(eventsOf("by-user", WorkflowStarted.class).getFirst().actor())
                .isEqualTo("user:42");
        assertThat(eventsOf("by-app", SignalReceived.class).getFirst().actor()).isEqualTo("user:42");
        assertThat(eventsOf("canceled", WorkflowCancelRequested.class).getFirst())
                .satisfies(c -> {
                    assertThat(c.actor()).isEqualTo("ops:ana");
                    assertThat(c.reason()).isEqualTo("customer left");
                });
        assertThat(eventsOf("failed", WorkflowRetried.class).getFirst().actor()).isEqualTo("billing-service");
        assertThat(wf.actor()).as("the scope ended").isEqualTo("billing-service");
    }

    @Test
    void aTerminationRecordsWhoAskedForIt() {
        billing();
        wf.start(approval, "a", StartOptions.id("stopped"));
        awaitStatus("stopped", RunStatus.WAITING);

        try (var as = wf.actingAs("ops:ada")) {
            wf.terminate("stopped", "runaway");
        }

        awaitStatus("stopped", RunStatus.CANCELED);
        WorkflowCancelRequested request =
                eventsOf("stopped", WorkflowCancelRequested.class).getFirst();
        assertThat(request.terminate()).isTrue();
        assertThat(request.actor()).isEqualTo("ops:ada");
    }

    @Test
    void aRunSomeoneTriggersRecordsWhoAndTheSchedule() {
        billing();
        wf.schedules().create(ScheduleSpec.cron("tck-actor-yearly", "0 0 0 1 1 ? 2099", approval, "tick"));

        String runId;
        try (var as = wf.actingAs("ops:erin")) {
            runId = wf.schedules().trigger("tck-actor-yearly").orElseThrow();
        }

        awaitStatus(runId, RunStatus.WAITING);
        WorkflowStarted started = eventsOf(runId, WorkflowStarted.class).getFirst();
        assertThat(started.actor())
                .as("a fire of its own records the schedule (aSchedulesLastChange…)")
                .isEqualTo("ops:erin");
        assertThat(started.schedule()).isEqualTo("tck-actor-yearly");
    }

    @Test
    void aSchedulesLastChangeRecordsWhoMadeItAndItsFiresDoNot() {
        billing();
        ScheduleSpec every = ScheduleSpec.every("tck-actor-hourly", Duration.ofHours(1), approval, "tick");
        wf.schedules().create(every);
        assertThat(wf.schedules().describe("tck-actor-hourly").changedBy()).isEqualTo("billing-service");

        try (var as = wf.actingAs("ops:ana")) {
            wf.schedules().pause("tck-actor-hourly");
        }
        assertThat(wf.schedules().describe("tck-actor-hourly").changedBy()).isEqualTo("ops:ana");
        try (var as = wf.actingAs("ops:bo")) {
            wf.schedules().resume("tck-actor-hourly");
        }
        clock.advance(Duration.ofHours(1).plusSeconds(1));
        long end = System.nanoTime() + WAIT.toNanos();
        while (wf.schedules().describe("tck-actor-hourly").lastRunId() == null && System.nanoTime() < end) {
            pause(20);
        }

        assertThat(wf.schedules().describe("tck-actor-hourly").changedBy())
                .as("a fire is no one's change")
                .isEqualTo("ops:bo");
        String fired = wf.schedules().describe("tck-actor-hourly").lastRunId();
        assertThat(eventsOf(fired, WorkflowStarted.class).getFirst().actor())
                .isEqualTo(Actors.schedule("tck-actor-hourly"));

        // a run someone backfills is theirs, as a triggered one is (aRunAScheduleStarted…)
        java.time.Instant nextFire =
                java.time.Instant.parse(fired.substring(fired.indexOf('@') + 1)).plus(Duration.ofHours(1));
        java.util.List<String> backfilled;
        try (var as = wf.actingAs("ops:finn")) {
            backfilled = wf.schedules().backfill("tck-actor-hourly", nextFire, nextFire);
        }
        assertThat(backfilled).hasSize(1);
        assertThat(eventsOf(backfilled.getFirst(), WorkflowStarted.class)
                        .getFirst()
                        .actor())
                .isEqualTo("ops:finn");
    }

    @Test
    void aQueuesLimitsRecordWhoSetThemAndWhenAndItsAdmissionsDoNot() {
        String q = "tck-actor-queue";
        wf = Worldflow.builder()
                .world(world)
                .clock(clock)
                .actor("billing-service")
                .register(approval)
                .build();
        wf.startWorker(workerOptions().withQueues(Set.of(StartOptions.DEFAULT_QUEUE, q)));
        wf.queues().define(QueueSpec.named(q).withConcurrency(1));
        QueueInfo created = wf.queues().describe(q).orElseThrow();
        assertThat(created.changedBy()).isEqualTo("billing-service");
        assertThat(created.changedAt()).isEqualTo(clock.instant());

        clock.advance(Duration.ofMinutes(1));
        Instant changed = clock.instant();
        try (var as = wf.actingAs("ops:ana")) {
            wf.queues().define(QueueSpec.named(q).withConcurrency(2));
        }
        clock.advance(Duration.ofMinutes(1));
        wf.start(approval, "queued", StartOptions.queue(q).withId("tck-actor-queued"));
        awaitStatus("tck-actor-queued", RunStatus.WAITING);

        QueueInfo after = wf.queues().describe(q).orElseThrow();
        assertThat(after.running()).as("the run was admitted").isEqualTo(1);
        assertThat(after.updatedAt()).as("its admission wrote the queue").isAfter(changed);
        assertThat(after.changedBy()).as("an admission is no one's change").isEqualTo("ops:ana");
        assertThat(after.changedAt()).isEqualTo(changed);
        assertThat(after.spec().concurrency()).isEqualTo(2);

        // the same limits set again (as an application declaring its queues at each start does) are no change
        wf.queues().define(QueueSpec.named(q).withConcurrency(2));
        assertThat(wf.queues().describe(q).orElseThrow().changedBy()).isEqualTo("ops:ana");
        assertThat(wf.queues().describe(q).orElseThrow().changedAt()).isEqualTo(changed);
    }

    @Test
    void scopesNestAndABadActorIsRefusedChangingNothing() {
        billing();
        try (var outer = wf.actingAs("outer")) {
            try (var inner = wf.actingAs("inner")) {
                assertThat(wf.actor()).isEqualTo("inner");
            }
            assertThat(wf.actor()).isEqualTo("outer");
        }
        assertThat(wf.actor()).isEqualTo("billing-service");
        for (String bad : new String[] {"", "  ", "x".repeat(Actors.MAX_LENGTH + 1), null}) {
            assertThatThrownBy(() -> wf.actingAs(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("actor");
        }
        assertThatThrownBy(() -> wf.actingAs("eve\n    9  +    0 ms  WorkflowCompleted \"forged\", by auditor"))
                .as("a line break would let an actor pass for lines of a timeline shown as text")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not hold control characters")
                .hasMessageContaining("U+000A at 3");
        assertThatThrownBy(() -> wf.actingAs("z".repeat(10_000)))
                .as("a refused actor is not echoed whole")
                .hasMessageContaining("(10000 characters)")
                .message()
                .hasSizeLessThan(200);
        assertThat(wf.actor()).isEqualTo("billing-service");
        assertThatThrownBy(() -> Worldflow.builder().actor(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("actor");
    }
}
