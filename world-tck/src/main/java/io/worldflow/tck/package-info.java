/**
 * The world conformance kit: abstract JUnit 5 contracts a world's tests subclass, driven by a manual clock, that
 * prove it keeps every rule of the SPI (logs, leases, timers, signals, queries, whole workflows, crashes and replay).
 */
package io.worldflow.tck;
