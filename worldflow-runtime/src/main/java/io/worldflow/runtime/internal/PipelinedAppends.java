package io.worldflow.runtime.internal;

import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.NewRun;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One batch's appends with those a run pipelined joined into one: a run whose branches each write (a hundred children
 * started side by side, each by its own append) costs the world one append in the batch, not one per branch, which
 * on a server is one statement instead of a hundred. Appends of different runs are independent within a batch (none
 * was queued after seeing another's outcome), so joining a run's later append to its first one reorders nothing that
 * any code observed.
 */
final class PipelinedAppends {

    /** What goes to the world, in order. */
    final List<Append> appends = new ArrayList<>();
    /** For each queued append, the index of the one in {@link #appends} that carries it. */
    private final int[] carriedBy;

    private final List<Append> queued;

    PipelinedAppends(List<Append> queued) {
        this.queued = queued;
        this.carriedBy = new int[queued.size()];
        Map<String, Integer> lastOfRun = new HashMap<>();
        for (int i = 0; i < queued.size(); i++) {
            Append next = queued.get(i);
            Integer at = lastOfRun.get(next.runId());
            if (at != null && joinable(appends.get(at), next)) {
                appends.set(at, joined(appends.get(at), next));
                carriedBy[i] = at;
            } else {
                lastOfRun.put(next.runId(), appends.size());
                carriedBy[i] = appends.size();
                appends.add(next);
            }
        }
    }

    /** The results of the queued appends, from those of {@link #appends}. */
    List<AppendResult> results(List<AppendResult> written) {
        List<AppendResult> out = new ArrayList<>(queued.size());
        for (int i = 0; i < queued.size(); i++) {
            AppendResult r = written.get(carriedBy[i]);
            // each one reports the log's length right after its own events, as it would have alone
            out.add(r.appended() ? new AppendResult(true, queued.get(i).nextSeq(), r.cancelRequested()) : r);
        }
        return out;
    }

    /**
     * Whether {@code next} continues {@code first} directly: its events follow, and {@code first} neither ends the
     * turn nor hands its signals on (both belong at the end of what is written); runs started twice stay apart, as a
     * second start of an id is a write of its own that leaves the run untouched.
     */
    private static boolean joinable(Append first, Append next) {
        if (first.turnEnd() != null
                || first.carrySignalsTo() != null
                || first.status().isTerminal()
                || next.expectedSeq() != first.nextSeq()) {
            return false;
        }
        if (first.starts().isEmpty() || next.starts().isEmpty()) {
            return true;
        }
        Set<String> ids = new HashSet<>();
        first.starts().forEach(r -> ids.add(r.runId()));
        return next.starts().stream().map(NewRun::runId).noneMatch(ids::contains);
    }

    private static Append joined(Append first, Append next) {
        return new Append(
                first.runId(),
                first.expectedSeq(),
                concat(first.events(), next.events()),
                next.status(),
                concat(first.consumedSignals(), next.consumedSignals()),
                next.turnEnd(),
                concat(first.starts(), next.starts()),
                concat(first.signals(), next.signals()),
                concat(first.cancels(), next.cancels()),
                next.carrySignalsTo());
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        if (a.isEmpty()) {
            return b;
        }
        if (b.isEmpty()) {
            return a;
        }
        List<T> all = new ArrayList<>(a.size() + b.size());
        all.addAll(a);
        all.addAll(b);
        return all;
    }
}
