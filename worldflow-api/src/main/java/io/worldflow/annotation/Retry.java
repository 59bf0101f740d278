package io.worldflow.annotation;

import io.worldflow.Backoff;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A retry policy in annotation form; see {@link io.worldflow.RetryPolicy}. Defaults match {@code RetryPolicy.defaults()}. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({})
public @interface Retry {

    int maxAttempts() default 3;

    Backoff backoff() default Backoff.EXPONENTIAL;

    long initialDelayMillis() default 1_000;

    long maxDelayMillis() default 300_000;

    double multiplier() default 2.0;

    double jitter() default 0.1;

    Class<? extends Throwable>[] nonRetryable() default {};
}
