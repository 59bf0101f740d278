package io.worldflow.annotation;

import io.worldflow.CatchUpPolicy;
import io.worldflow.OverlapPolicy;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a schedule of the {@link WorkflowMethod} it marks: registering the object creates the schedule when the
 * {@code Worldflow} is built, or changes it to this declaration, as
 * {@code Worldflow.Builder.schedule(ScheduleSpec)} does. Give {@link #cron} or {@link #every}, not both.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Repeatable(Scheduled.List.class)
public @interface Scheduled {

    /** The schedule's id. */
    String id();

    /** A Quartz cron expression, seconds first: {@code "0 0 2 * * ?"}. */
    String cron() default "";

    /** An interval as ISO-8601 ({@code "PT15M"}), counted from when the schedule is created. */
    String every() default "";

    /** The time zone the cron expression reads its fields in. */
    String zone() default "UTC";

    /** The input of each run, as JSON read as the method's parameter type. */
    String input() default "null";

    OverlapPolicy overlap() default OverlapPolicy.SKIP;

    CatchUpPolicy catchUp() default CatchUpPolicy.LATEST;

    /** Several schedules of one workflow method. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    @interface List {
        Scheduled[] value();
    }
}
