package io.worldflow.runtime;

import io.worldflow.UnknownWorkflowException;
import io.worldflow.Workflow;
import io.worldflow.annotation.SignalType;
import io.worldflow.annotation.WorkflowMethod;
import io.worldflow.runtime.internal.Registry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** In another package than {@link Registry}, as user code is: non-public classes must still work. */
class RegistryTest {

    record Order(String id) {}

    record Receipt(String orderId) {}

    /** Package-private, as users often write it. */
    static class OrderWorkflows {
        @WorkflowMethod("order.fulfil.v1")
        @SignalType(name = "address", type = Order.class)
        @SignalType(name = "receipt", type = Receipt.class)
        public Receipt fulfil(Order order) {
            return new Receipt(order.id());
        }

        @WorkflowMethod("order.count.v1")
        public int count(int n) {
            return n + 1;
        }

        @WorkflowMethod("order.notify.v1")
        public void notifyCustomer(String email) throws IOException {
            if (email.isBlank()) {
                throw new IOException("no address");
            }
        }

        public Receipt notAWorkflow(Order order) {
            return null;
        }
    }

    static class TwoParameters {
        @WorkflowMethod("two")
        public String run(String a, String b) {
            return a + b;
        }
    }

    static class NoParameters {
        @WorkflowMethod("none")
        public String run() {
            return "";
        }
    }

    public static class StaticMethod {
        @WorkflowMethod("static")
        public static String run(String a) {
            return a;
        }
    }

    static class NothingAnnotated {
        public String run(String a) {
            return a;
        }
    }

    static class OnlyPrivate {
        @WorkflowMethod("private")
        private String run(String a) {
            return a;
        }
    }

    private final Registry registry = new Registry();

    private static Workflow<String, String> echo(String name) {
        return Workflow.define(name, String.class, (ctx, s) -> s);
    }

    @Test
    void aRegisteredWorkflowIsFoundByName() {
        Workflow<String, String> wf = echo("echo.v1");
        registry.register(wf);

        assertThat(registry.require("echo.v1")).isSameAs(wf);
        assertThat(registry.find("echo.v1").orElseThrow()).isSameAs(wf);
        assertThat(registry.find("echo.v2")).isEmpty();
        assertThat(registry.names()).containsExactly("echo.v1");
    }

    @Test
    void twoWorkflowsWithOneNameAreRejected() {
        registry.register(echo("echo.v1"));

        assertThatThrownBy(() -> registry.register(echo("echo.v1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'echo.v1'")
                .hasMessageContaining("already registered");
    }

    @Test
    void registeringTheSameWorkflowTwiceIsHarmless() {
        Workflow<String, String> wf = echo("echo.v1");
        registry.register(wf);
        registry.register(wf);

        assertThat(registry.names()).containsExactly("echo.v1");
    }

    @Test
    void requireOfAnUnknownNameListsTheRegisteredOnes() {
        registry.register(echo("a.v1"));
        registry.register(echo("b.v1"));

        assertThatThrownBy(() -> registry.require("c.v1"))
                .isInstanceOfSatisfying(
                        UnknownWorkflowException.class,
                        e -> assertThat(e.workflow()).isEqualTo("c.v1"))
                .hasMessageContaining("'c.v1'")
                .hasMessageContaining("a.v1")
                .hasMessageContaining("b.v1");
    }

    @Test
    void eachWorkflowMethodOfAnObjectIsRegisteredWithItsTypes() {
        registry.registerAnnotated(new OrderWorkflows());

        assertThat(registry.names()).containsExactlyInAnyOrder("order.fulfil.v1", "order.count.v1", "order.notify.v1");
        Workflow<Object, Object> fulfil = registry.require("order.fulfil.v1");
        assertThat(fulfil.inputType()).isEqualTo(Order.class);
        assertThat(fulfil.outputType()).isEqualTo(Receipt.class);
        Workflow<Object, Object> count = registry.require("order.count.v1");
        assertThat(count.inputType()).isEqualTo(Integer.class);
        assertThat(count.outputType()).isEqualTo(Integer.class);
        assertThat(registry.require("order.notify.v1").outputType()).isEqualTo(Void.class);
    }

    @Test
    void theSignalTypesAWorkflowMethodDeclaresAreItsWorkflowsAndNoOthers() {
        registry.registerAnnotated(new OrderWorkflows());
        registry.register(
                Workflow.define("other", String.class, (ctx, in) -> in).withSignalType("note", String.class));

        assertThat(registry.require("order.fulfil.v1").options().signalTypes())
                .isEqualTo(Map.of("address", Order.class, "receipt", Receipt.class));
        assertThat(registry.signalType("order.fulfil.v1", "receipt")).contains(Receipt.class);
        assertThat(registry.signalType("order.count.v1", "receipt")).isEmpty();
        assertThat(registry.signalType("order.fulfil.v1", "note")).isEmpty();
        assertThat(registry.signalType("other", "note")).contains(String.class);
        assertThat(registry.signalType("unknown", "note")).isEmpty();
        assertThat(registry.declaresSignal("address")).isTrue();
        assertThat(registry.declaresSignal("approval")).isFalse();
    }

    @Test
    void anAnnotatedWorkflowCallsItsMethod() throws Exception {
        registry.registerAnnotated(new OrderWorkflows());

        assertThat(registry.require("order.fulfil.v1").execute(null, new Order("o-1")))
                .isEqualTo(new Receipt("o-1"));
        assertThat(registry.require("order.count.v1").execute(null, 41)).isEqualTo(42);
        assertThat(registry.require("order.notify.v1").execute(null, "a@b.c")).isNull();
    }

    @Test
    void anAnnotatedWorkflowsExceptionIsThrownUnwrapped() {
        registry.registerAnnotated(new OrderWorkflows());

        assertThatThrownBy(() -> registry.require("order.notify.v1").execute(null, " "))
                .isExactlyInstanceOf(IOException.class)
                .hasMessage("no address");
    }

    @Test
    void aWorkflowMethodWithTwoParametersIsRejectedNamingIt() {
        assertThatThrownBy(() -> registry.registerAnnotated(new TwoParameters()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("run(java.lang.String,java.lang.String)")
                .hasMessageContaining("exactly one parameter");
    }

    @Test
    void aWorkflowMethodWithoutParametersIsRejected() {
        assertThatThrownBy(() -> registry.registerAnnotated(new NoParameters()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exactly one parameter");
    }

    @Test
    void aStaticWorkflowMethodIsRejected() {
        assertThatThrownBy(() -> registry.registerAnnotated(new StaticMethod()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("instance method");
    }

    @Test
    void anObjectWithoutWorkflowMethodsIsRejectedNamingItsClass() {
        assertThatThrownBy(() -> registry.registerAnnotated(new NothingAnnotated()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(NothingAnnotated.class.getName())
                .hasMessageContaining("no public @WorkflowMethod");
        assertThatThrownBy(() -> registry.registerAnnotated(new OnlyPrivate()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no public @WorkflowMethod");
    }

    @Test
    void anAnnotatedNameClashingWithARegisteredWorkflowIsRejected() {
        registry.register(echo("order.count.v1"));

        assertThatThrownBy(() -> registry.registerAnnotated(new OrderWorkflows()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("order.count.v1");
    }
}
