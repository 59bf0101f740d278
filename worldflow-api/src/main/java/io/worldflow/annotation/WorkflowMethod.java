package io.worldflow.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a public method of one parameter as a workflow. Registering the object that holds it defines a
 * workflow of this name; inside the method, {@link io.worldflow.Workflow}'s static methods act on the run.
 * (It is not called {@code @Workflow} so that it never hides the {@link io.worldflow.Workflow} facade.)
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface WorkflowMethod {

    /** The workflow name, e.g. {@code order.fulfil.v1}. */
    String value();
}
