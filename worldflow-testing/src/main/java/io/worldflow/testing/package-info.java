/**
 * Testing workflows with JUnit 5: {@link io.worldflow.testing.WorldflowExtension} gives each test a fresh world of its
 * own, on a manual clock that skips ahead while every run sleeps, with step mocks ({@link
 * io.worldflow.testing.StepMocks}) and the timelines of its runs printed when the test fails.
 */
package io.worldflow.testing;
