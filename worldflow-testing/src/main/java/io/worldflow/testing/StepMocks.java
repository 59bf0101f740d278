package io.worldflow.testing;

import io.worldflow.StepFunction;
import io.worldflow.runtime.StepInterceptor;
import io.worldflow.runtime.StepInterceptor.StepCall;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The step mocks of one test world, and the attempts of its steps that ran. A step is mocked by its name, as the
 * workflow code gives it ({@code ctx.step("charge", ...)}, or an {@link io.worldflow.annotation.Step @Step} method's
 * name): each attempt of it then takes its answer from the mock instead of running the step's code, and the answer is
 * recorded as the attempt's result or failure, retried by the step's policy. Steps without a mock run their own code.
 *
 * <p>Mocks may be set at any time during a test, also while runs are under way: the worker asks this registry at each
 * attempt. Each test has a registry of its own, so mocks never reach the next test.
 *
 * <pre>{@code
 * world.steps().when("charge").thenThrow(new IOException("gateway down")).thenReturn(new Charge("c-1", 500));
 * ...
 * world.steps().verifyCalled("charge", 2);
 * }</pre>
 */
public final class StepMocks {

    private final Map<String, Stubbing> stubbings = new ConcurrentHashMap<>();
    private final List<StepCall> calls = new CopyOnWriteArrayList<>();

    StepMocks() {}

    /**
     * Mocks the step named {@code stepName}, replacing any earlier mock of it; finish with {@link Stubbing#thenReturn},
     * {@link Stubbing#thenThrow} or {@link Stubbing#thenAnswer}.
     *
     * @throws IllegalArgumentException when the name is null or blank
     */
    public Stubbing when(String stepName) {
        checkName(stepName);
        Stubbing stubbing = new Stubbing(stepName);
        stubbings.put(stepName, stubbing);
        return stubbing;
    }

    /** Every attempt of the step named {@code stepName} that ran (its code or its mock), in the order they began. */
    public List<StepCall> calls(String stepName) {
        checkName(stepName);
        return calls.stream().filter(c -> c.name().equals(stepName)).toList();
    }

    /** Every attempt of every step that ran in this test world, in the order they began. */
    public List<StepCall> calls() {
        return List.copyOf(calls);
    }

    /**
     * Checks that the step named {@code stepName} ran exactly {@code times} attempts.
     *
     * @throws AssertionError when it ran another number of times; the message lists the attempts that ran
     */
    public void verifyCalled(String stepName, int times) {
        if (times < 0) {
            throw new IllegalArgumentException("times must not be negative, was " + times);
        }
        List<StepCall> made = calls(stepName);
        if (made.size() != times) {
            throw new AssertionError("step '" + stepName + "' was expected to run " + times + " time(s), but ran "
                    + made.size() + (made.isEmpty() ? "" : ": " + describe(made)));
        }
    }

    /** The interceptor the test world's worker runs every step attempt through. */
    StepInterceptor interceptor() {
        return this::intercept;
    }

    private Object intercept(StepCall call, StepFunction<?> step) throws Exception {
        calls.add(call);
        Stubbing stubbing = stubbings.get(call.name());
        return stubbing == null ? step.call() : stubbing.next().reply(call, step);
    }

    private static String describe(List<StepCall> made) {
        List<String> lines = new ArrayList<>();
        for (StepCall c : made) {
            lines.add("attempt " + c.attempt() + " of " + c.stepId() + " in run " + c.runId());
        }
        return String.join(", ", lines);
    }

    private static void checkName(String stepName) {
        if (stepName == null || stepName.isBlank()) {
            throw new IllegalArgumentException("a step name must not be blank, was '" + stepName + "'");
        }
    }

    /** Computes a mocked attempt's result from the attempt; what it throws is the attempt's failure. */
    @FunctionalInterface
    public interface Answer {
        Object answer(StepCall call) throws Exception;
    }

    /**
     * The answers of one mocked step, used one per attempt in the order given; the last one answers every attempt
     * after it. {@code when("charge").thenThrow(e).thenReturn(v)}: the first attempt fails, the retry succeeds.
     */
    public static final class Stubbing {

        /** One answer, which may run the step's own code. */
        @FunctionalInterface
        private interface Reply {
            Object reply(StepCall call, StepFunction<?> step) throws Exception;
        }

        private final String stepName;
        private final List<Reply> replies = new ArrayList<>();
        private int used;

        private Stubbing(String stepName) {
            this.stepName = stepName;
        }

        /**
         * The attempt returns {@code value} (recorded as the step's result: it must be of the type the step returns,
         * or workflow code reading it fails with a {@link ClassCastException}).
         */
        public Stubbing thenReturn(Object value) {
            return add((call, step) -> value);
        }

        /** The attempt fails with {@code error}, and the step's retry policy decides what follows. */
        public Stubbing thenThrow(Exception error) {
            Objects.requireNonNull(error, "error");
            return add((call, step) -> {
                throw error;
            });
        }

        /** The attempt's result is what {@code answer} returns; what it throws is the attempt's failure. */
        public Stubbing thenAnswer(Answer answer) {
            Objects.requireNonNull(answer, "answer");
            return add((call, step) -> answer.answer(call));
        }

        /** The attempt runs the step's own code (after, say, a first attempt made to fail). */
        public Stubbing thenRunRealCode() {
            return add((call, step) -> step.call());
        }

        private synchronized Stubbing add(Reply reply) {
            replies.add(reply);
            return this;
        }

        private synchronized Reply next() {
            if (replies.isEmpty()) {
                String name = stepName;
                return (call, step) -> {
                    throw new IllegalStateException("step '" + name + "' is mocked without an answer: follow when(\""
                            + name + "\") with thenReturn, thenThrow or thenAnswer");
                };
            }
            Reply reply = replies.get(Math.min(used, replies.size() - 1));
            used++;
            return reply;
        }
    }
}
