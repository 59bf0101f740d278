package io.worldflow.testing;

import io.worldflow.RetryPolicy;
import io.worldflow.RunHandle;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStatus;
import io.worldflow.StepOptions;
import io.worldflow.Workflow;
import io.worldflow.WorkflowFailedException;
import io.worldflow.runtime.ManualClock;
import io.worldflow.runtime.StepInterceptor.StepCall;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WorldflowExtensionTest {

    static final AtomicInteger CHARGED = new AtomicInteger();
    static final AtomicInteger RENEWED = new AtomicInteger();

    /** Charges, sleeps a month, renews. */
    static final Workflow<String, String> SUBSCRIPTION =
            Workflow.define("test.subscription", String.class, (ctx, in) -> {
                String charge = ctx.step("charge", () -> "charged " + in + " #" + CHARGED.incrementAndGet());
                ctx.sleep("month", Duration.ofDays(30));
                return charge + ", " + ctx.step("renew", () -> "renewed #" + RENEWED.incrementAndGet());
            });

    /** A step that fails twice, two hours apart. */
    static final Workflow<String, String> FLAKY = Workflow.define(
            "test.flaky",
            String.class,
            (ctx, in) -> ctx.step("call", StepOptions.retry(RetryPolicy.fixed(3, Duration.ofHours(2))), () -> {
                if (ctx.attempt() < 3) {
                    throw new IllegalStateException("attempt " + ctx.attempt() + " fails");
                }
                return "ok on attempt " + ctx.attempt();
            }));

    /** Waits up to three days for an approval. */
    static final Workflow<String, String> APPROVAL = Workflow.define(
            "test.approval",
            String.class,
            (ctx, in) -> ctx.awaitSignal("approval", String.class, Duration.ofDays(3))
                    .orElse("timed out"));

    @RegisterExtension
    final WorldflowExtension worldflow = WorldflowExtension.builder()
            .register(SUBSCRIPTION)
            .register(FLAKY)
            .register(APPROVAL)
            .build();

    @Test
    void aMonthLongSleepEndsInMillisecondsWithTheClockMovedByAMonth(TestWorld world) {
        Instant start = world.clock().instant();
        long wall = System.nanoTime();
        RunHandle<String> run = world.start(SUBSCRIPTION, "ana");

        assertThat(run.result(Duration.ofSeconds(10))).startsWith("charged ana").contains("renewed");
        assertThat(Duration.ofNanos(System.nanoTime() - wall)).isLessThan(Duration.ofSeconds(5));
        assertThat(Duration.between(start, world.clock().instant())).isEqualTo(Duration.ofDays(30));
    }

    @Test
    void aRetrysBackoffOfHoursIsSkipped(TestWorld world) {
        Instant start = world.clock().instant();
        RunHandle<String> run = world.start(FLAKY, "x");

        assertThat(run.result(Duration.ofSeconds(10))).isEqualTo("ok on attempt 3");
        assertThat(Duration.between(start, world.clock().instant())).isEqualTo(Duration.ofHours(4));
        assertThat(world.steps().calls("call")).extracting(StepCall::attempt).containsExactly(1, 2, 3);
    }

    @Test
    void aRunWaitingForASignalHoldsTheClockUntilTheTestSendsIt(TestWorld world) throws InterruptedException {
        Instant start = world.clock().instant();
        RunHandle<String> run = world.start(APPROVAL, "x");
        world.awaitStatus(run.id(), RunStatus.WAITING, Duration.ofSeconds(10));
        Thread.sleep(200);
        assertThat(world.clock().instant())
                .as("its time limit is not skipped to")
                .isEqualTo(start);

        world.signal(run.id(), "approval", "yes");

        assertThat(run.result(Duration.ofSeconds(10))).isEqualTo("yes");
        assertThat(world.clock().instant()).isEqualTo(start);
    }

    @Test
    void theTestMovesTimeItselfToReachASignalsTimeLimit(TestWorld world) {
        RunHandle<String> run = world.start(APPROVAL, "x");
        world.awaitStatus(run.id(), RunStatus.WAITING, Duration.ofSeconds(10));

        world.clock().advance(Duration.ofDays(3));

        assertThat(run.result(Duration.ofSeconds(10))).isEqualTo("timed out");
    }

    @Test
    @Order(1)
    void aMockedStepAnswersInsteadOfItsCodeAndItsCallsAreRecorded(TestWorld world) {
        world.steps().when("charge").thenReturn("mocked charge");
        int before = CHARGED.get();

        String result = world.start(SUBSCRIPTION, "bo").result(Duration.ofSeconds(10));

        assertThat(result).startsWith("mocked charge, renewed");
        assertThat(CHARGED.get()).as("the real charge never ran").isEqualTo(before);
        world.steps().verifyCalled("charge", 1);
        world.steps().verifyCalled("renew", 1);
        assertThatThrownBy(() -> world.steps().verifyCalled("charge", 2))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("expected to run 2 time(s), but ran 1");
    }

    @Test
    @Order(2)
    void mocksBelongToOneTestTheNextRunsTheRealCode(TestWorld world) {
        int before = CHARGED.get();

        assertThat(world.start(SUBSCRIPTION, "cy").result(Duration.ofSeconds(10)))
                .startsWith("charged cy");
        assertThat(CHARGED.get()).isEqualTo(before + 1);
        assertThat(world.steps().calls()).extracting(StepCall::name).containsExactly("charge", "renew");
    }

    @Test
    void aMockThatThrowsFailsEachAttemptAsThePolicySays(TestWorld world) {
        world.steps().when("call").thenThrow(new IllegalStateException("the service is down"));
        RunHandle<String> run = world.start(FLAKY, "x");

        assertThatThrownBy(() -> run.result(Duration.ofSeconds(10)))
                .isInstanceOf(WorkflowFailedException.class)
                .hasMessageContaining("the service is down");
        assertThat(world.steps().calls("call")).extracting(StepCall::attempt).containsExactly(1, 2, 3);
        assertThat(world.timeline(run.id()))
                .filteredOn(e -> e instanceof io.worldflow.event.StepFailed)
                .hasSize(1);
    }

    @Test
    void answersAreUsedOnePerAttemptTheLastRepeating(TestWorld world) {
        world.steps()
                .when("call")
                .thenThrow(new IllegalStateException("first attempt fails"))
                .thenRunRealCode();
        RunHandle<String> run = world.start(FLAKY, "x");

        // the second attempt runs the real code, which fails on attempts before the third
        assertThat(run.result(Duration.ofSeconds(10))).isEqualTo("ok on attempt 3");
        assertThat(world.steps().calls("call")).extracting(StepCall::attempt).containsExactly(1, 2, 3);
        world.steps().when("charge").thenReturn("first").thenReturn("second");
        assertThat(world.start(SUBSCRIPTION, "dee").result(Duration.ofSeconds(10)))
                .startsWith("first, renewed");
    }

    @Test
    void aMockWithoutAnAnswerFailsTheStepNamingWhatIsMissing(TestWorld world) {
        world.steps().when("call");
        assertThatThrownBy(() -> world.start(FLAKY, "x").result(Duration.ofSeconds(10)))
                .isInstanceOf(WorkflowFailedException.class)
                .hasMessageContaining("mocked without an answer");
    }

    @Test
    void anAnswerSeesTheAttempt(TestWorld world) {
        world.steps().when("call").thenAnswer(call -> "answered attempt " + call.attempt() + " of " + call.runId());
        RunHandle<String> run = world.start(FLAKY, "x");
        assertThat(run.result(Duration.ofSeconds(10))).isEqualTo("answered attempt 1 of " + run.id());
    }

    @Test
    void timeMovedInTheMiddleOfAStepDoesNotMakeTheWorkerDropItsOwnTurn(TestWorld world) {
        AtomicInteger ran = new AtomicInteger();
        Workflow<String, String> slow = Workflow.define(
                "test.slow",
                String.class,
                (ctx, in) -> ctx.step("crunch", () -> {
                    ran.incrementAndGet();
                    world.clock().advance(Duration.ofDays(30)); // far past the worker's 30 s lease
                    Thread.sleep(300); // the worker's poller and lease keeper look meanwhile
                    return "crunched";
                }));
        world.register(slow);

        assertThat(world.start(slow, "x").result(Duration.ofSeconds(10))).isEqualTo("crunched");
        assertThat(ran).as("the step ran once").hasValue(1);
    }

    @Test
    void aStepsHeartbeatsAreTimedByTheSameClock(TestWorld world) {
        AtomicInteger attempts = new AtomicInteger();
        StepOptions beating = StepOptions.retry(RetryPolicy.none()).withHeartbeatTimeout(Duration.ofMinutes(5));
        Workflow<Integer, String> beats = Workflow.define(
                "test.beats",
                Integer.class,
                (ctx, gapMinutes) -> ctx.step("beat", beating, () -> {
                    attempts.incrementAndGet();
                    for (int i = 0; i < 3; i++) {
                        world.clock().advance(Duration.ofMinutes(gapMinutes));
                        Thread.sleep(50);
                        ctx.heartbeat(i);
                    }
                    return "beat 3 times";
                }));
        world.register(beats);

        assertThat(world.start(beats, 4).result(Duration.ofSeconds(10))).isEqualTo("beat 3 times");
        assertThatThrownBy(() -> world.start(beats, 6).result(Duration.ofSeconds(10)))
                .isInstanceOf(WorkflowFailedException.class)
                .hasMessageContaining("sent no heartbeat for PT5M");
        assertThat(attempts).hasValue(2);
    }

    @Test
    void badInputsAreClearErrors(TestWorld world, ManualClock clock, io.worldflow.runtime.Worldflow wf) {
        assertThat(clock).isSameAs(world.clock());
        assertThat(wf).isSameAs(world.worldflow());
        assertThatThrownBy(() -> world.steps().when(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be blank");
        assertThatThrownBy(() -> world.awaitStatus("nobody", RunStatus.COMPLETED, Duration.ofSeconds(1)))
                .isInstanceOf(RunNotFoundException.class);
        assertThatThrownBy(() -> world.register(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> world.register(SUBSCRIPTION))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("before the test world is first used");
        assertThatThrownBy(() -> world.start(FLAKY, "x").result(Duration.ofMillis(1)))
                .isInstanceOf(io.worldflow.ResultTimeoutException.class);
    }
}
