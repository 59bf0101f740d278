package io.worldflow.cli.internal;

import java.util.List;

/** One page of runs, newest first; {@code nextCursor} asks for the next page, null on the last. */
public record RunList(List<RunSummary> runs, String nextCursor) {

    public RunList {
        runs = List.copyOf(runs);
    }
}
