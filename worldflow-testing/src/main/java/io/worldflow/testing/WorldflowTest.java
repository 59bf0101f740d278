package io.worldflow.testing;

import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs each test of the class in a test world of its own, as {@code @ExtendWith(WorldflowExtension.class)} does
 * ({@link WorldflowExtension}): the test registers its workflows on the {@link TestWorld} before it first uses it.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(WorldflowExtension.class)
public @interface WorldflowTest {}
