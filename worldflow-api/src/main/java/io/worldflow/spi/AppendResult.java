package io.worldflow.spi;

/**
 * The outcome of one {@link Append}.
 *
 * @param appended        true when the events were written
 * @param logLength       the log's length now (after the append, or the length that made it conflict);
 *                        -1 when the run does not exist
 * @param cancelRequested whether cancellation of the run has been requested
 */
public record AppendResult(boolean appended, long logLength, boolean cancelRequested) {

    public static AppendResult missing() {
        return new AppendResult(false, -1, false);
    }

    public boolean isConflict() {
        return !appended && logLength >= 0;
    }
}
