package io.worldflow;

import io.worldflow.annotation.Retry;
import io.worldflow.annotation.Step;
import io.worldflow.internal.CurrentContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link Workflow#steps(Class, Object)}: {@code @Step} interfaces turned into proxies calling {@code ctx.step}. */
class WorkflowStepsTest {

    public interface Payments {
        @Step(
                name = "charge-card",
                atMostOnce = true,
                retry =
                        @Retry(
                                maxAttempts = 5,
                                backoff = Backoff.LINEAR,
                                initialDelayMillis = 200,
                                maxDelayMillis = 2_000,
                                multiplier = 1.5,
                                jitter = 0.0,
                                nonRetryable = {IllegalArgumentException.class}))
        String charge(String order, int cents) throws IOException;

        @Step
        int refund(String chargeId);

        /** Not a step: called directly. */
        String currency();

        default String describe() {
            return "payments in " + currency();
        }
    }

    public interface NoSteps {
        String hello();
    }

    public interface BadRetry {
        @Step(retry = @Retry(maxAttempts = 0))
        void send();
    }

    /** Not public: the proxy must still be able to call through it. */
    interface Shipping {
        @Step
        String label(String item);
    }

    static class FakePayments implements Payments {
        final List<String> calls = new ArrayList<>();

        @Override
        public String charge(String order, int cents) throws IOException {
            calls.add("charge " + order + " " + cents);
            if (cents < 0) {
                throw new IOException("gateway down");
            }
            return "ch-" + order;
        }

        @Override
        public int refund(String chargeId) {
            calls.add("refund " + chargeId);
            return 42;
        }

        @Override
        public String currency() {
            return "EUR";
        }
    }

    record StepCall(String name, StepOptions options) {}

    private final List<StepCall> stepCalls = new ArrayList<>();

    /** A context that records each step and runs it at once, as a first live execution would. */
    private WorkflowContext recordingContext() {
        return (WorkflowContext) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {WorkflowContext.class}, (proxy, method, args) -> {
                    if (method.getName().equals("step")) {
                        StepOptions options = args.length == 3 ? (StepOptions) args[1] : null;
                        stepCalls.add(new StepCall((String) args[0], options));
                        try {
                            return ((StepFunction<?>) args[args.length - 1]).call();
                        } catch (Exception e) {
                            // as the runtime does once retries are exhausted
                            throw new StepFailedException((String) args[0], 1, ErrorInfo.of(e), e);
                        }
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    private void enterWorkflow() {
        CurrentContext.swap(recordingContext());
    }

    @AfterEach
    void leaveWorkflow() {
        CurrentContext.swap(null);
    }

    @Test
    void aClassIsRejectedNamingIt() {
        assertThatThrownBy(() -> Workflow.steps(FakePayments.class, new FakePayments()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(FakePayments.class.getName())
                .hasMessageContaining("not an interface");
    }

    @Test
    void anInterfaceWithoutStepMethodsIsRejectedNamingIt() {
        assertThatThrownBy(() -> Workflow.steps(NoSteps.class, () -> "hi"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(NoSteps.class.getName())
                .hasMessageContaining("no @Step methods");
    }

    @Test
    void anInvalidRetryAnnotationFailsWhenTheProxyIsCreated() {
        assertThatThrownBy(() -> Workflow.steps(BadRetry.class, () -> {}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxAttempts");
    }

    @Test
    void stepOptionsAreMappedFromTheAnnotation() throws IOException {
        FakePayments target = new FakePayments();
        Payments payments = Workflow.steps(Payments.class, target);
        enterWorkflow();

        String id = payments.charge("o-1", 500);

        assertThat(id).isEqualTo("ch-o-1");
        assertThat(target.calls).containsExactly("charge o-1 500");
        assertThat(stepCalls).hasSize(1);
        StepCall call = stepCalls.getFirst();
        assertThat(call.name()).isEqualTo("charge-card");
        assertThat(call.options().atMostOnce()).isTrue();
        assertThat(call.options().retry())
                .isEqualTo(new RetryPolicy(
                        5,
                        Backoff.LINEAR,
                        Duration.ofMillis(200),
                        Duration.ofSeconds(2),
                        1.5,
                        0.0,
                        Set.of(IllegalArgumentException.class)));
    }

    @Test
    void aPlainStepIsNamedAfterItsMethodWithTheDefaultRetryPolicy() {
        Payments payments = Workflow.steps(Payments.class, new FakePayments());
        enterWorkflow();

        int refunded = payments.refund("ch-1");

        assertThat(refunded).isEqualTo(42);
        assertThat(stepCalls).containsExactly(new StepCall("refund", new StepOptions(RetryPolicy.defaults(), false)));
    }

    @Test
    void theTargetsExceptionReachesTheStepUnwrapped() {
        Payments payments = Workflow.steps(Payments.class, new FakePayments());
        enterWorkflow();

        assertThatThrownBy(() -> payments.charge("o-1", -1))
                .isInstanceOf(StepFailedException.class)
                .cause()
                .isExactlyInstanceOf(IOException.class)
                .hasMessage("gateway down");
    }

    @Test
    void methodsWithoutStepAreCalledDirectlyEvenOutsideAWorkflow() {
        Payments payments = Workflow.steps(Payments.class, new FakePayments());

        assertThat(payments.currency()).isEqualTo("EUR");
        assertThat(payments.describe()).isEqualTo("payments in EUR");
        assertThat(stepCalls).isEmpty();
    }

    @Test
    void objectMethodsGoToTheTarget() {
        FakePayments target = new FakePayments();
        Payments payments = Workflow.steps(Payments.class, target);

        assertThat(payments.hashCode()).isEqualTo(target.hashCode());
        assertThat(payments.toString()).isEqualTo(target.toString());
    }

    @Test
    void aProxyIsEqualToItselfOnly() {
        FakePayments target = new FakePayments();
        Payments payments = Workflow.steps(Payments.class, target);

        assertThat(payments).isEqualTo(payments);
        assertThat(payments).isNotEqualTo(Workflow.steps(Payments.class, target));
        assertThat(Set.of(payments)).contains(payments);
    }

    @Test
    void aStepCalledOutsideAWorkflowFailsClearly() {
        Payments payments = Workflow.steps(Payments.class, new FakePayments());

        assertThatThrownBy(() -> payments.refund("ch-1"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no workflow is executing on this thread");
    }

    @Test
    void aNonPublicStepInterfaceWorks() {
        Shipping shipping = Workflow.steps(Shipping.class, item -> "label-" + item);
        enterWorkflow();

        assertThat(shipping.label("book")).isEqualTo("label-book");
        assertThat(stepCalls).extracting(StepCall::name).containsExactly("label");
    }

    @Test
    void theStaticFacadeOutsideAWorkflowFailsClearly() {
        assertThatThrownBy(() -> Workflow.sleep("nap", Duration.ofSeconds(1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("only inside workflow code");
        assertThatThrownBy(Workflow::context).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theStaticFacadeUsesTheCurrentContext() {
        enterWorkflow();

        String value = Workflow.step("fetch", () -> "fetched");

        assertThat(value).isEqualTo("fetched");
        assertThat(stepCalls).containsExactly(new StepCall("fetch", null));
    }
}
