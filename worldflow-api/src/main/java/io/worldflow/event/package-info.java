/**
 * The events of a run's log: one sealed hierarchy of records under {@link io.worldflow.event.Event}, each with the
 * run, its place in the log ({@code seq}) and its time. A run's log is what it replays against and what an audit reads.
 */
package io.worldflow.event;
