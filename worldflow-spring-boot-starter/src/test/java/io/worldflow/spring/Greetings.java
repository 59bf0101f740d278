package io.worldflow.spring;

import io.worldflow.Workflow;
import io.worldflow.annotation.Step;
import io.worldflow.annotation.WorkflowMethod;

import java.util.concurrent.atomic.AtomicInteger;

/** A workflow in the annotation style whose step calls a Spring service. */
public class Greetings {

    public static final String NAME = "greet.spring.v1";

    /** The service the step calls: an ordinary bean. */
    public static class Greeter implements Steps {
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public String greet(String name) {
            calls.incrementAndGet();
            return "Hello, " + name + "!";
        }
    }

    public interface Steps {
        @Step
        String greet(String name);
    }

    private final Steps steps;

    public Greetings(Greeter greeter) {
        this.steps = Workflow.steps(Steps.class, greeter);
    }

    @WorkflowMethod(NAME)
    public String run(String name) {
        return steps.greet(name);
    }
}
