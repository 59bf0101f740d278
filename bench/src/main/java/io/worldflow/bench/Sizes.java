package io.worldflow.bench;

/**
 * The sizes of the workloads. {@link #defaults()} are those of BENCHMARKS.md; {@link #smoke()} is tiny, for CI.
 *
 * @param w1Runs       W1: noop3 runs enqueued before the worker starts (5,000)
 * @param w2Runs       W2: noop3 runs one at a time (200)
 * @param w2IdleMs     W2: how long the worker idles after start before the first run (3 s)
 * @param w3Branches   W3: parallel steps per run (100)
 * @param w3Batch      W3: runs submitted at once after the three single runs (20)
 * @param w4Runs       W4: sleep runs (1,000)
 * @param w4SleepMs    W4: their durable sleep (1 s)
 * @param costRuns     cost: the extra W1's N (2,000)
 * @param stepsSmall   scale: the short sequential workflow (100 steps)
 * @param stepsLarge   scale: the long one (1,000 steps)
 * @param historySteps scale: steps of the replayed history, 3 events each (3,333 → 10,000 events)
 * @param sleepers     scale: runs sleeping at once (100,000)
 * @param w7Schedules  W7: schedules firing every second (1,000)
 * @param w7Seconds    W7: how many seconds they fire (60)
 * @param w8Runs       W8: runs fed to the rate-limited queue (5,000)
 * @param w8Rate       W8: the queue's limit, starts per second (200)
 * @param runPollMs    how often one run is looked up by primary key while waited for (5 ms)
 * @param countPollMs  how often runs are counted while many are waited for (50 ms)
 * @param searchRuns   SEARCH: runs with search attributes to search among (1,000,000)
 */
record Sizes(
        int w1Runs,
        int w2Runs,
        long w2IdleMs,
        int w3Branches,
        int w3Batch,
        int w4Runs,
        int w4SleepMs,
        int costRuns,
        int stepsSmall,
        int stepsLarge,
        int historySteps,
        int sleepers,
        int w7Schedules,
        int w7Seconds,
        int w8Runs,
        int w8Rate,
        int runPollMs,
        int countPollMs,
        int searchRuns) {

    Sizes {
        if (w1Runs < 1
                || w2Runs < 1
                || w3Branches < 1
                || w3Batch < 1
                || w4Runs < 1
                || costRuns < 1
                || stepsSmall < 1
                || stepsLarge < 1
                || historySteps < 1
                || sleepers < 1
                || w7Schedules < 1
                || w7Seconds < 1
                || w8Runs < 1
                || w8Rate < 1
                || searchRuns < 1) {
            throw new IllegalArgumentException("every workload size must be at least 1: " + this);
        }
        if (w4SleepMs < 1 || runPollMs < 1 || countPollMs < 1 || w2IdleMs < 0) {
            throw new IllegalArgumentException("sleep and poll intervals must be positive: " + this);
        }
    }

    static Sizes defaults() {
        return new Sizes(
                5_000, 200, 3_000, 100, 20, 1_000, 1_000, 2_000, 100, 1_000, 3_333, 100_000, 1_000, 60, 5_000, 200, 5,
                50, 1_000_000);
    }

    /**
     * Tiny sizes for the CI smoke test. W8's 400 runs at 100 starts/s last four seconds: the fewest that leave whole
     * one-second windows after the first to count.
     */
    static Sizes smoke() {
        return new Sizes(100, 20, 200, 10, 5, 20, 200, 100, 10, 100, 100, 200, 5, 3, 400, 100, 5, 50, 500);
    }

    /**
     * The sizes for the aws world on its emulators, which write at some tens of runs per second here: W1 and the
     * cost run at most 1,000 runs, at most 2,000 sleeping runs, W7 at most 20 schedules, and W8 at most 400 runs at
     * 20 starts/s at most. Its figures are informative only.
     */
    Sizes forEmulators() {
        return new Sizes(
                Math.min(w1Runs, 1_000),
                w2Runs,
                w2IdleMs,
                w3Branches,
                w3Batch,
                w4Runs,
                w4SleepMs,
                Math.min(costRuns, 1_000),
                stepsSmall,
                stepsLarge,
                historySteps,
                Math.min(sleepers, 2_000),
                Math.min(w7Schedules, 20),
                w7Seconds,
                Math.min(w8Runs, 400),
                Math.min(w8Rate, 20),
                runPollMs,
                countPollMs,
                Math.min(searchRuns, 2_000));
    }

    Sizes withMain(Workload w, int n) {
        return switch (w) {
            case W1 ->
                new Sizes(
                        n,
                        w2Runs,
                        w2IdleMs,
                        w3Branches,
                        w3Batch,
                        w4Runs,
                        w4SleepMs,
                        costRuns,
                        stepsSmall,
                        stepsLarge,
                        historySteps,
                        sleepers,
                        w7Schedules,
                        w7Seconds,
                        w8Runs,
                        w8Rate,
                        runPollMs,
                        countPollMs,
                        searchRuns);
            case W2 ->
                new Sizes(
                        w1Runs,
                        n,
                        w2IdleMs,
                        w3Branches,
                        w3Batch,
                        w4Runs,
                        w4SleepMs,
                        costRuns,
                        stepsSmall,
                        stepsLarge,
                        historySteps,
                        sleepers,
                        w7Schedules,
                        w7Seconds,
                        w8Runs,
                        w8Rate,
                        runPollMs,
                        countPollMs,
                        searchRuns);
            case W3, W5 ->
                new Sizes(
                        w1Runs,
                        w2Runs,
                        w2IdleMs,
                        n,
                        w3Batch,
                        w4Runs,
                        w4SleepMs,
                        costRuns,
                        stepsSmall,
                        stepsLarge,
                        historySteps,
                        sleepers,
                        w7Schedules,
                        w7Seconds,
                        w8Runs,
                        w8Rate,
                        runPollMs,
                        countPollMs,
                        searchRuns);
            case W4, W6 ->
                new Sizes(
                        w1Runs,
                        w2Runs,
                        w2IdleMs,
                        w3Branches,
                        w3Batch,
                        n,
                        w4SleepMs,
                        costRuns,
                        stepsSmall,
                        stepsLarge,
                        historySteps,
                        sleepers,
                        w7Schedules,
                        w7Seconds,
                        w8Runs,
                        w8Rate,
                        runPollMs,
                        countPollMs,
                        searchRuns);
            case COST ->
                new Sizes(
                        w1Runs,
                        w2Runs,
                        w2IdleMs,
                        w3Branches,
                        w3Batch,
                        w4Runs,
                        w4SleepMs,
                        n,
                        stepsSmall,
                        stepsLarge,
                        historySteps,
                        sleepers,
                        w7Schedules,
                        w7Seconds,
                        w8Runs,
                        w8Rate,
                        runPollMs,
                        countPollMs,
                        searchRuns);
            case SCALE ->
                new Sizes(
                        w1Runs,
                        w2Runs,
                        w2IdleMs,
                        w3Branches,
                        w3Batch,
                        w4Runs,
                        w4SleepMs,
                        costRuns,
                        stepsSmall,
                        stepsLarge,
                        historySteps,
                        n,
                        w7Schedules,
                        w7Seconds,
                        w8Runs,
                        w8Rate,
                        runPollMs,
                        countPollMs,
                        searchRuns);
            case LOOP ->
                new Sizes(
                        w1Runs,
                        w2Runs,
                        w2IdleMs,
                        w3Branches,
                        w3Batch,
                        w4Runs,
                        w4SleepMs,
                        costRuns,
                        stepsSmall,
                        Math.max(1, n / 10),
                        historySteps,
                        sleepers,
                        w7Schedules,
                        w7Seconds,
                        w8Runs,
                        w8Rate,
                        runPollMs,
                        countPollMs,
                        searchRuns);
            case W7 ->
                new Sizes(
                        w1Runs,
                        w2Runs,
                        w2IdleMs,
                        w3Branches,
                        w3Batch,
                        w4Runs,
                        w4SleepMs,
                        costRuns,
                        stepsSmall,
                        stepsLarge,
                        historySteps,
                        sleepers,
                        n,
                        w7Seconds,
                        w8Runs,
                        w8Rate,
                        runPollMs,
                        countPollMs,
                        searchRuns);
            case W8 ->
                new Sizes(
                        w1Runs,
                        w2Runs,
                        w2IdleMs,
                        w3Branches,
                        w3Batch,
                        w4Runs,
                        w4SleepMs,
                        costRuns,
                        stepsSmall,
                        stepsLarge,
                        historySteps,
                        sleepers,
                        w7Schedules,
                        w7Seconds,
                        n,
                        w8Rate,
                        runPollMs,
                        countPollMs,
                        searchRuns);
            case SEARCH ->
                new Sizes(
                        w1Runs,
                        w2Runs,
                        w2IdleMs,
                        w3Branches,
                        w3Batch,
                        w4Runs,
                        w4SleepMs,
                        costRuns,
                        stepsSmall,
                        stepsLarge,
                        historySteps,
                        sleepers,
                        w7Schedules,
                        w7Seconds,
                        w8Runs,
                        w8Rate,
                        runPollMs,
                        countPollMs,
                        n);
        };
    }
}
