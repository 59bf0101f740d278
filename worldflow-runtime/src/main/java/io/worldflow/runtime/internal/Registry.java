package io.worldflow.runtime.internal;

import io.worldflow.UnknownWorkflowException;
import io.worldflow.Workflow;
import io.worldflow.annotation.Scheduled;
import io.worldflow.annotation.SignalType;
import io.worldflow.annotation.WorkflowMethod;
import io.worldflow.internal.StepProxies;

import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/** The workflows this Worldflow instance knows, by name. */
public final class Registry {

    private final Map<String, Workflow<?, ?>> byName = Collections.synchronizedMap(new TreeMap<>());
    private final List<DeclaredSchedule> scheduled = new ArrayList<>();
    /** Every signal name some registered workflow declares a type of: most signals need no look at their run. */
    private final Set<String> typedSignals = ConcurrentHashMap.newKeySet();

    /** A {@link Scheduled} annotation of a workflow method, with the workflow and its input type. */
    public record DeclaredSchedule(String workflow, Class<?> inputType, Scheduled annotation) {}

    public void register(Workflow<?, ?> workflow) {
        Objects.requireNonNull(workflow, "workflow");
        Workflow<?, ?> previous = byName.putIfAbsent(workflow.name(), workflow);
        if (previous != null && previous != workflow) {
            throw new IllegalArgumentException("a workflow named '" + workflow.name() + "' is already registered");
        }
        typedSignals.addAll(workflow.options().signalTypes().keySet());
    }

    /** The type {@code workflow} declares its signal {@code name} carries, if it is registered here and declares one. */
    public Optional<Class<?>> signalType(String workflow, String name) {
        if (!typedSignals.contains(name)) {
            return Optional.empty();
        }
        return find(workflow).map(w -> w.options().signalTypes().get(name));
    }

    /** Whether some workflow registered here declares the type of a signal named {@code name}. */
    public boolean declaresSignal(String name) {
        return typedSignals.contains(name);
    }

    /** Registers each {@link WorkflowMethod} of {@code target} as a workflow. */
    public void registerAnnotated(Object target) {
        Objects.requireNonNull(target, "target");
        int found = 0;
        for (Method m : target.getClass().getMethods()) {
            WorkflowMethod annotation = m.getAnnotation(WorkflowMethod.class);
            if (annotation == null) {
                continue;
            }
            if (m.getParameterCount() != 1 || Modifier.isStatic(m.getModifiers())) {
                throw new IllegalArgumentException(
                        "@WorkflowMethod " + m + " must be an instance method with exactly one parameter");
            }
            // a public method of a non-public class is callable from here only once made accessible
            m.trySetAccessible();
            register(annotated(annotation.value(), target, m));
            for (Scheduled s : m.getAnnotationsByType(Scheduled.class)) {
                scheduled.add(new DeclaredSchedule(annotation.value(), wrap(m.getParameterTypes()[0]), s));
            }
            found++;
        }
        if (found == 0) {
            throw new IllegalArgumentException(target.getClass().getName() + " has no public @WorkflowMethod methods");
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Workflow<?, ?> annotated(String name, Object target, Method m) {
        Class input = m.getParameterTypes()[0];
        Class output = m.getReturnType() == void.class ? Void.class : wrap(m.getReturnType());
        Workflow<?, ?> workflow =
                Workflow.define(name, wrap(input), output, (ctx, in) -> StepProxies.invoke(m, target, in));
        for (SignalType signal : m.getAnnotationsByType(SignalType.class)) {
            workflow = workflow.withSignalType(signal.name(), signal.type());
        }
        return workflow;
    }

    private static Class<?> wrap(Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        }
        return MethodType.methodType(type).wrap().returnType();
    }

    /** The schedules the registered objects' workflow methods declare, in registration order. */
    public List<DeclaredSchedule> scheduled() {
        return List.copyOf(scheduled);
    }

    @SuppressWarnings("unchecked")
    public Optional<Workflow<Object, Object>> find(String name) {
        return Optional.ofNullable((Workflow<Object, Object>) byName.get(name));
    }

    public Workflow<Object, Object> require(String name) {
        return find(name).orElseThrow(() -> new UnknownWorkflowException(name, names()));
    }

    public Set<String> names() {
        synchronized (byName) {
            return Set.copyOf(byName.keySet());
        }
    }
}
