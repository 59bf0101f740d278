package io.worldflow.runtime.internal;

import io.worldflow.BranchFunction;
import io.worldflow.ParallelOptions;
import io.worldflow.WorldflowException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Runs the branches of one {@code parallel} on virtual threads, at most {@code maxConcurrency} at a time. */
final class Fanout<T, R> {

    private final RunExecution exec;
    private final String parallelId;
    private final List<T> items;
    private final BranchFunction<T, R> fn;
    private final int limit;
    private final Object[] results;
    private final Throwable[] errors;
    /** The last outcome each branch's code may have acted on, taken over by the parent after the join. */
    private final long[] seen;

    private final RunContext parent;
    private int started;
    private int finished;

    Fanout(
            RunExecution exec,
            RunContext parent,
            String parallelId,
            List<T> items,
            ParallelOptions options,
            BranchFunction<T, R> fn) {
        this.exec = exec;
        this.parent = parent;
        this.parallelId = parallelId;
        this.items = new ArrayList<>(items);
        this.fn = fn;
        int n = items.size();
        this.limit = options.maxConcurrency() == 0 ? n : Math.min(n, options.maxConcurrency());
        this.results = new Object[n];
        this.errors = new Throwable[n];
        this.seen = new long[n];
        Arrays.fill(seen, -1);
    }

    List<R> run() {
        int n = items.size();
        if (n == 0) {
            return List.of();
        }
        exec.threads.update(() -> {
            while (started < limit) {
                startNext();
            }
            return false;
        });
        // the branches are reached by any cancel of the parent and end (after their cleanup): wait for them even then
        exec.threads.awaitInMemory(CancelScope.NONE, () -> finished == n);
        for (long branchSeen : seen) {
            parent.sawAlso(branchSeen);
        }
        exec.threads.checkActive();
        for (int i = 0; i < n; i++) {
            Throwable e = errors[i];
            if (e instanceof RuntimeException r) {
                throw r;
            }
            if (e instanceof Error err) {
                throw err;
            }
            if (e != null) {
                throw new WorldflowException("branch " + i + " of parallel '" + parallelId + "' failed: " + e, e);
            }
        }
        @SuppressWarnings("unchecked")
        List<R> list = (List<R>) Arrays.asList(results);
        return list;
    }

    /** Called under the run's lock. */
    private void startNext() {
        int index = started++;
        exec.threads.spawn(parallelId + "/" + index, () -> runBranch(index));
    }

    private void runBranch(int index) {
        RunContext ctx = new RunContext(exec, Ids.branch(parallelId, index), parent.seenSeq(), parent.cancel);
        ctx.enter();
        try {
            R value = fn.apply(ctx, items.get(index));
            if (ctx.unvisitedRecorded() > 0) {
                throw exec.nondeterministic("branch '" + Ids.branch(parallelId, index) + "' returned, but its history"
                        + " holds " + ctx.unvisitedRecorded() + " more primitive(s) the code no longer reaches");
            }
            results[index] = value;
        } catch (Throwable e) {
            errors[index] = e;
        } finally {
            seen[index] = ctx.seenSeq();
            exec.threads.update(() -> {
                finished++;
                if (started < items.size()) {
                    startNext();
                }
                return finished == items.size(); // the parent waits for all of them, and only for that
            });
        }
    }
}
