/**
 * Testing workflows with JUnit 5: {@link io.worldflow.testing.WorldflowExtension} gives each test a fresh world of its
 * own, on a manual clock that skips ahead while every run sleeps, with step mocks ({@link
 * io.worldflow.testing.StepMocks}) and the timelines of its runs printed when the test fails. Tests that run on the
 * postgres or aws world in Testcontainers' containers take their configuration from {@link
 * io.worldflow.testing.ContainerWorlds}.
 */
package io.worldflow.testing;
