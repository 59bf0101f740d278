package io.worldflow;

/**
 * How a parallel fan-out runs.
 *
 * @param maxConcurrency at most this many branches execute at once; 0 for no limit
 */
public record ParallelOptions(int maxConcurrency) {

    public ParallelOptions {
        if (maxConcurrency < 0) {
            throw new IllegalArgumentException("maxConcurrency must not be negative, was " + maxConcurrency);
        }
    }

    public static ParallelOptions defaults() {
        return new ParallelOptions(0);
    }

    public static ParallelOptions maxConcurrency(int n) {
        return new ParallelOptions(n);
    }
}
