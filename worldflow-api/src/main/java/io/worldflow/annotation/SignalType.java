package io.worldflow.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the type a signal of the {@link WorkflowMethod}'s runs carries, as
 * {@code WorkflowOptions.withSignalType(name, type)} does: a signal sent as plain JSON is read as {@link #type} before
 * it is stored, so its {@code Secret} fields are sealed and a body of the wrong shape is refused.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Repeatable(SignalType.List.class)
public @interface SignalType {

    /** The signal's name, as the workflow waits for it. */
    String name();

    /** The type the workflow reads it as. */
    Class<?> type();

    /** The container of repeated {@link SignalType} annotations. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    @interface List {
        SignalType[] value();
    }
}
