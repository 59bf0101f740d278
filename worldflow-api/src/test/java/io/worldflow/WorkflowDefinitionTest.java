package io.worldflow;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkflowDefinitionTest {

    record Order(String sku) {}

    @Test
    void defineKeepsNameTypesAndDefaultOptions() throws Exception {
        Workflow<Order, String> wf =
                Workflow.define("order.fulfil.v1", Order.class, String.class, (ctx, order) -> "done " + order.sku());

        assertThat(wf.name()).isEqualTo("order.fulfil.v1");
        assertThat(wf.inputType()).isEqualTo(Order.class);
        assertThat(wf.outputType()).isEqualTo(String.class);
        assertThat(wf.options()).isEqualTo(WorkflowOptions.defaults());
        assertThat(wf.execute(null, new Order("a"))).isEqualTo("done a");
    }

    @Test
    void aSignalTypeIsDeclaredPerNameAndABadDeclarationIsRefusedNamingIt() {
        Workflow<Order, Integer> wf = Workflow.define("w", Order.class, (ctx, o) -> 1)
                .withSignalType("sku", Order.class)
                .withSignalType("count", Integer.class)
                .withSignalType("sku", String.class);

        assertThat(wf.options().signalTypes()).isEqualTo(java.util.Map.of("sku", String.class, "count", Integer.class));
        assertThat(wf.options().stepRetry()).isEqualTo(RetryPolicy.defaults());
        assertThat(wf.options().withStepRetry(RetryPolicy.none()).signalTypes())
                .as("kept when another option changes")
                .containsKeys("sku", "count");
        WorkflowOptions options = WorkflowOptions.defaults();
        assertThatThrownBy(() -> options.withSignalType("", Order.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was ''");
        assertThatThrownBy(() -> options.withSignalType("@child", Order.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not starting with '@', was '@child'");
        assertThatThrownBy(() -> options.withSignalType("x".repeat(101), Order.class))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> options.withSignalType("pay", null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("signal 'pay'");
        assertThatThrownBy(() -> options.withSignalType("pay", int.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("signal 'pay' cannot be declared as int");
        assertThatThrownBy(() -> new WorkflowOptions(RetryPolicy.defaults(), java.util.Map.of("", String.class)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(options.signalTypes()).isEmpty();
    }

    @Test
    void theOutputTypeIsOptional() {
        assertThat(Workflow.define("w", Order.class, (ctx, o) -> 1).outputType())
                .isNull();
    }

    @Test
    void blankOrOverlongNamesAreRejected() {
        assertThatThrownBy(() -> Workflow.define(" ", Order.class, (ctx, o) -> 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("workflow name");
        assertThatThrownBy(() -> Workflow.define("w".repeat(201), Order.class, (ctx, o) -> 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Workflow.define("w".repeat(200), Order.class, (ctx, o) -> 1).name())
                .hasSize(200);
    }

    @Test
    void missingPartsAreRejectedNamingThem() {
        assertThatThrownBy(() -> Workflow.define(null, Order.class, (ctx, o) -> 1))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("name");
        assertThatThrownBy(() -> Workflow.define("w", null, (ctx, o) -> 1))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("inputType");
        assertThatThrownBy(() -> Workflow.define("w", Order.class, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("body");
        assertThatThrownBy(() -> Workflow.define("w", Order.class, null, (ctx, o) -> 1))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("outputType");
    }

    @Test
    void withOptionsReturnsACopyWithTheOtherOptions() {
        Workflow<Order, Integer> wf = Workflow.define("w", Order.class, (ctx, o) -> 1);
        WorkflowOptions options = WorkflowOptions.defaults().withStepRetry(RetryPolicy.none());

        Workflow<Order, Integer> changed = wf.withOptions(options);

        assertThat(changed.options().stepRetry().maxAttempts()).isEqualTo(1);
        assertThat(changed.name()).isEqualTo("w");
        assertThat(wf.options()).isEqualTo(WorkflowOptions.defaults());
    }

    @Test
    void workflowOptionsRequireAStepRetryPolicy() {
        assertThatThrownBy(() -> new WorkflowOptions(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void stepOptionsDefaultToTheWorkflowsPolicyAndRepeatableExecution() {
        assertThat(StepOptions.defaults().retry()).isNull();
        assertThat(StepOptions.defaults().atMostOnce()).isFalse();
        StepOptions o =
                StepOptions.retry(RetryPolicy.fixed(2, Duration.ofSeconds(1))).withAtMostOnce(true);
        assertThat(o.retry().maxAttempts()).isEqualTo(2);
        assertThat(o.atMostOnce()).isTrue();
        assertThatThrownBy(() -> StepOptions.retry(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void parallelOptionsRejectANegativeLimit() {
        assertThat(ParallelOptions.defaults().maxConcurrency()).isZero();
        assertThat(ParallelOptions.maxConcurrency(4).maxConcurrency()).isEqualTo(4);
        assertThatThrownBy(() -> ParallelOptions.maxConcurrency(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
    }

    @Test
    void stepFailedExceptionSummarisesTheRecordedError() {
        ErrorInfo error = ErrorInfo.of(new IllegalStateException("no stock"));
        StepFailedException e = new StepFailedException("reserve~2", 3, error, null);

        assertThat(e)
                .hasMessage("step 'reserve~2' failed after 3 attempt(s): java.lang.IllegalStateException: no stock");
        assertThat(e.stepId()).isEqualTo("reserve~2");
        assertThat(e.attempts()).isEqualTo(3);
        assertThat(e.isCausedBy(IllegalStateException.class)).isTrue();
        assertThat(e.isCausedBy(RuntimeException.class)).isTrue();
        assertThat(e.isCausedBy(IllegalArgumentException.class)).isFalse();
        assertThat(e).isInstanceOf(WorldflowException.class);
    }

    @Test
    void payloadKnowsNullAndItsSize() {
        assertThat(Payload.NULL.isNull()).isTrue();
        assertThat(Payload.NULL.type()).isNull();
        assertThat(new Payload("\"null\"", "java.lang.String").isNull()).isFalse();
        assertThat(new Payload("[1,2]", null).size()).isEqualTo(5);
        assertThatThrownBy(() -> new Payload(null, "x")).isInstanceOf(NullPointerException.class);
    }
}
