package io.worldflow.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an interface method as a step: calls through {@link io.worldflow.Workflow#steps(Class, Object)}
 * run as steps of the current run, recorded and retried per {@link #retry()}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Step {

    /** The step name; the method name when empty. */
    String name() default "";

    /** The retry policy. */
    Retry retry() default @Retry;

    /** Make the start durable before executing, and never run it twice. */
    boolean atMostOnce() default false;

    /**
     * Each attempt's time limit in milliseconds ({@link io.worldflow.StepOptions#withTimeout}); 0, the default, for
     * none.
     */
    long timeoutMillis() default 0;

    /**
     * The longest time in milliseconds between two heartbeats of an attempt
     * ({@link io.worldflow.StepOptions#withHeartbeatTimeout}); 0, the default, for none.
     */
    long heartbeatTimeoutMillis() default 0;
}
