package io.worldflow;

import java.util.List;

/**
 * One page of runs.
 *
 * @param runs       the runs, newest first
 * @param nextCursor pass to {@link RunQuery#withCursor(String)} for the next page; null on the last page
 */
public record RunPage(List<RunInfo> runs, String nextCursor) {

    public RunPage {
        runs = List.copyOf(runs);
    }

    public boolean hasMore() {
        return nextCursor != null;
    }
}
