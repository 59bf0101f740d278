/**
 * The dashboard: a web UI, a JSON API, live updates and the endpoint of signed signal URLs over a
 * {@link io.worldflow.runtime.Worldflow}, embedded in an application with {@link io.worldflow.dashboard.Dashboard#start}.
 * The library brings no world and no logging backend: the application chooses both. The standalone server, with every
 * world, is the {@code dashboard-server} module.
 */
package io.worldflow.dashboard;
