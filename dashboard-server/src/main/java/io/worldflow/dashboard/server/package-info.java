/**
 * The dashboard as a process of its own: {@link io.worldflow.dashboard.server.DashboardMain}, the main class of
 * {@code worldflow-dashboard-server.jar}, which has every world and logback on its classpath.
 */
package io.worldflow.dashboard.server;
