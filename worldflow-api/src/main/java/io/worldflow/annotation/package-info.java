/**
 * The annotation style of defining workflows: {@code @WorkflowMethod} on a method, {@code @Step} (with
 * {@code @Retry}) on interface methods whose calls become steps through a JDK proxy.
 */
package io.worldflow.annotation;
