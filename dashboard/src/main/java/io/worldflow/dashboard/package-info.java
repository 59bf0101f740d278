/**
 * The dashboard: a web UI, a JSON API, live updates and the endpoint of signed signal URLs over a
 * {@link io.worldflow.runtime.Worldflow}, embedded with {@link io.worldflow.dashboard.Dashboard#start} or run on its
 * own by {@link io.worldflow.dashboard.DashboardMain}.
 */
package io.worldflow.dashboard;
