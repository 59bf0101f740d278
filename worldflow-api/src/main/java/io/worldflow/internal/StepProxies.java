package io.worldflow.internal;

import io.worldflow.RetryPolicy;
import io.worldflow.StepOptions;
import io.worldflow.WorkflowContext;
import io.worldflow.annotation.Retry;
import io.worldflow.annotation.Step;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** Builds the JDK proxies behind {@link io.worldflow.Workflow#steps(Class, Object)}. */
public final class StepProxies {

    private StepProxies() {}

    /** Calls {@code method} on {@code target}, rethrowing what the method itself threw (not a reflection wrapper). */
    public static Object invoke(Method method, Object target, Object... args) throws Exception {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception ex) {
                throw ex;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    public static <T> T create(Class<T> stepInterface, T target) {
        Objects.requireNonNull(stepInterface, "stepInterface");
        Objects.requireNonNull(target, "target");
        if (!stepInterface.isInterface()) {
            throw new IllegalArgumentException(stepInterface.getName() + " is not an interface");
        }
        Map<Method, StepOptions> steps = new HashMap<>();
        Map<Method, String> names = new HashMap<>();
        Map<Method, Method> callable = new HashMap<>();
        for (Method m : stepInterface.getMethods()) {
            // a non-public interface's methods are callable from here only once made accessible
            m.trySetAccessible();
            callable.put(m, m);
            Step step = m.getAnnotation(Step.class);
            if (step != null) {
                steps.put(
                        m,
                        new StepOptions(
                                policy(step.retry()),
                                step.atMostOnce(),
                                millis(step.timeoutMillis()),
                                millis(step.heartbeatTimeoutMillis())));
                names.put(m, step.name().isEmpty() ? m.getName() : step.name());
            }
        }
        if (steps.isEmpty()) {
            throw new IllegalArgumentException(stepInterface.getName() + " has no @Step methods");
        }
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                // the target does not know its proxy: a proxy is equal to itself only
                return method.getName().equals("equals") ? proxy == args[0] : method.invoke(target, args);
            }
            Method m = callable.getOrDefault(method, method);
            StepOptions options = steps.get(method);
            if (options == null) {
                return invoke(m, target, args);
            }
            WorkflowContext ctx = CurrentContext.get();
            return ctx.step(names.get(method), options, () -> invoke(m, target, args));
        };
        return stepInterface.cast(
                Proxy.newProxyInstance(stepInterface.getClassLoader(), new Class<?>[] {stepInterface}, handler));
    }

    /** A time limit of an annotation: none for 0 (a negative one is refused by {@link StepOptions}). */
    private static Duration millis(long value) {
        return value == 0 ? null : Duration.ofMillis(value);
    }

    static RetryPolicy policy(Retry retry) {
        return new RetryPolicy(
                retry.maxAttempts(),
                retry.backoff(),
                Duration.ofMillis(retry.initialDelayMillis()),
                Duration.ofMillis(retry.maxDelayMillis()),
                retry.multiplier(),
                retry.jitter(),
                Set.of(retry.nonRetryable()));
    }
}
