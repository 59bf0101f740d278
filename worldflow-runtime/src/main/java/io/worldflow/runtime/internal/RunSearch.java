package io.worldflow.runtime.internal;

import io.worldflow.SearchAttributes;
import io.worldflow.SearchKey;
import io.worldflow.event.SearchAttributesUpdated;
import io.worldflow.spi.SearchValues;

import java.util.List;

/**
 * A run's search attributes as its code sees them: those it started with, then each change its code makes, recorded
 * the first time and compared with the record on every replay (a change that differs holds the run). The world
 * indexes a change as it writes it.
 */
final class RunSearch {

    private SearchAttributes current;

    RunSearch(SearchAttributes started) {
        this.current = started;
    }

    synchronized SearchAttributes current() {
        return current;
    }

    /**
     * Sets {@code set} and removes {@code removed}, as one recorded change.
     *
     * @throws IllegalArgumentException when a value would change an attribute's type or the run would carry too many;
     *                                  nothing is recorded
     */
    static void update(RunContext ctx, SearchAttributes set, List<String> removed) {
        RunExecution exec = ctx.exec;
        for (String name : removed) {
            SearchKey.checkName(name);
        }
        String id = ctx.nextId("search", History.Kind.SEARCH);
        List<String> changes = SearchValues.changes(set, removed);
        History.Recorded recorded = exec.history.get(id);
        if (recorded != null) {
            List<String> before = recorded.first(SearchAttributesUpdated.class).attributes();
            if (!before.equals(changes)) {
                throw exec.nondeterministic("search attribute change '" + id + "' is " + before
                        + " in the history, but the code now makes it " + changes);
            }
            exec.search.apply(before);
            return;
        }
        exec.threads.checkActive();
        exec.search.check(set, removed);
        ctx.record(seq -> new SearchAttributesUpdated(exec.runId, seq, exec.now(), id, changes));
        exec.search.apply(changes);
    }

    private synchronized void check(SearchAttributes set, List<String> removed) {
        SearchAttributes after = current;
        for (String name : set.names()) {
            SearchKey.Type had = current.typeOf(name);
            if (had != null && had != set.typeOf(name)) {
                throw new IllegalArgumentException("search attribute '" + name + "' of this run is of type " + had
                        + ", not " + set.typeOf(name) + "; remove it first to change its type");
            }
        }
        for (String name : removed) {
            after = after.without(name);
        }
        after.withAll(set); // throws when the run would carry too many
    }

    private synchronized void apply(List<String> changes) {
        current = SearchValues.apply(current, changes);
    }
}
