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
import java.util.function.Function;

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
        // each run's appends are gathered first and joined once: joining them pair by pair would copy and check the
        // growing append again at every step, a cost quadratic in a run's appends in the batch
        List<Joining> joinings = new ArrayList<>();
        Map<String, Joining> lastOfRun = new HashMap<>();
        for (int i = 0; i < queued.size(); i++) {
            Append next = queued.get(i);
            Joining at = lastOfRun.get(next.runId());
            if (at != null && at.takes(next)) {
                at.add(next);
            } else {
                at = new Joining(joinings.size(), next);
                lastOfRun.put(next.runId(), at);
                joinings.add(at);
            }
            carriedBy[i] = at.index;
        }
        for (Joining j : joinings) {
            appends.add(j.joined());
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

    /** One run's appends that go to the world as one: the first, and those that continue it directly. */
    private static final class Joining {

        final int index;
        private final List<Append> parts = new ArrayList<>(1);
        /** The ids of the runs the parts start; null while they start none (most appends). */
        private Set<String> started;

        Joining(int index, Append first) {
            this.index = index;
            add(first);
        }

        private Append last() {
            return parts.getLast();
        }

        /**
         * Whether {@code next} continues the appends so far directly: its events follow, and the last neither ends
         * the turn nor hands its signals on (both belong at the end of what is written); runs started twice stay
         * apart, as a second start of an id is a write of its own that leaves the run untouched.
         */
        boolean takes(Append next) {
            Append last = last();
            if (last.turnEnd() != null
                    || last.carrySignalsTo() != null
                    || last.status().isTerminal()
                    || next.expectedSeq() != last.nextSeq()) {
                return false;
            }
            return started == null || next.starts().stream().map(NewRun::runId).noneMatch(started::contains);
        }

        void add(Append next) {
            parts.add(next);
            if (!next.starts().isEmpty()) {
                if (started == null) {
                    started = new HashSet<>();
                }
                next.starts().forEach(r -> started.add(r.runId()));
            }
        }

        /** The appends as one, made once: the last one's status, turn end and hand-on, everything else in order. */
        Append joined() {
            if (parts.size() == 1) {
                return parts.getFirst();
            }
            Append first = parts.getFirst();
            Append last = last();
            return new Append(
                    first.runId(),
                    first.expectedSeq(),
                    all(Append::events),
                    last.status(),
                    all(Append::consumedSignals),
                    last.turnEnd(),
                    all(Append::starts),
                    all(Append::signals),
                    all(Append::cancels),
                    last.carrySignalsTo());
        }

        private <T> List<T> all(Function<Append, List<T>> part) {
            List<T> out = new ArrayList<>();
            for (Append a : parts) {
                out.addAll(part.apply(a));
            }
            return out;
        }
    }
}
