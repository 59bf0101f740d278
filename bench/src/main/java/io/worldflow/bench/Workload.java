package io.worldflow.bench;

/** The workloads of BENCHMARKS.md. */
enum Workload {
    /** Drain: enqueue N noop3 runs, then start the worker. */
    W1,
    /** Latency: noop3 runs one at a time on an idle worker. */
    W2,
    /** Fan-out: 100 parallel steps; three single runs, then 20 at once. */
    W3,
    /** Sleep: lateness of a 1 s durable sleep. */
    W4,
    /** Children: a parent with 100 child runs (as many as W3's branches), each a noop3; three single runs. */
    W5,
    /** Race: a signal against a one-hour timer, as many runs as W4, one at a time; signal → seen completed. */
    W6,
    /**
     * Loop: one logical workflow that continues as new ten times as many times as SCALE's long run has steps (10,000),
     * one step per run; the last tenth's time against the first's.
     */
    LOOP,
    /** Cost per run on the server (an extra W1 with N = 2,000); only worlds with cost counters. */
    COST,
    /** Scale: 100 vs 1,000 steps, replay of a 10,000-event history, 100,000 sleeping runs. */
    SCALE
}
