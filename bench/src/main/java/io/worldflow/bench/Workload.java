package io.worldflow.bench;

import java.util.Arrays;
import java.util.List;

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
    /**
     * Children: a parent with 100 child runs (as many as W3's branches), each a noop3; three single runs, then 20 at
     * once.
     */
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
    SCALE,
    /** Schedule lateness: 1,000 schedules firing every second for a minute on one worker; run start − fire time. */
    W7,
    /** Rate limit: a queue limited to 200 starts/s fed 5,000 runs, two workers where the world allows; starts per 1 s. */
    W8,
    /**
     * Search: 1,000,000 runs with search attributes (ten per customer, a tenth per tenant), then the time of one page
     * of a search by attribute from the driver's process; no worker.
     */
    SEARCH;

    /**
     * What {@code all} runs unless {@code --workloads} names others: every workload but W7, W8 and SEARCH, which last
     * minutes by their nature (a minute of schedules, 25 s of rate-limited starts, a million runs to create) and run
     * only when named.
     */
    static final List<Workload> DEFAULT = Arrays.stream(values())
            .filter(w -> w != W7 && w != W8 && w != SEARCH)
            .toList();
}
