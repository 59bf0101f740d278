package io.worldflow.runtime.internal;

import io.worldflow.Payload;
import io.worldflow.StepFunction;
import io.worldflow.WorldflowException;
import io.worldflow.event.MarkerRecorded;

/**
 * A run's recorded values: markers (the time, a random seed, a UUID, a side effect's result) and versions of a
 * change, each recorded the first time its code reaches it and read back from the history on every replay.
 */
final class Markers {

    private Markers() {}

    /** The value {@code fn} gives, recorded as a marker of {@code kind} the first time, read back after. */
    static <T> T value(RunContext ctx, String name, String kind, Class<T> type, StepFunction<T> fn) {
        RunExecution exec = ctx.exec;
        String id = ctx.nextId(name, History.Kind.MARKER);
        History.Recorded recorded = exec.history.get(id);
        String what = kind + " '" + id + "' of run '" + exec.runId + "'";
        if (recorded != null) {
            return exec.engine.codec.decode(recorded.first(MarkerRecorded.class).value(), type, what);
        }
        exec.checkActive();
        T value;
        try {
            value = fn.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new WorldflowException(what + " threw: " + e, e);
        }
        Payload payload = exec.engine.codec.encode(value, what);
        ctx.record(seq -> new MarkerRecorded(exec.runId, seq, exec.now(), id, kind, payload));
        return exec.engine.codec.decode(payload, type, what);
    }

    /**
     * The version of change {@code changeId} the run follows: the one recorded, which must be within the range the
     * code supports (else the run is held); in a history from before the change (replaying, none recorded), the
     * oldest; else the newest, recorded.
     */
    static int version(RunContext ctx, String changeId, int minSupported, int maxSupported) {
        RunExecution exec = ctx.exec;
        Ids.checkName("changeId", changeId);
        if (minSupported > maxSupported) {
            throw new IllegalArgumentException(
                    "version range is empty: min " + minSupported + " > max " + maxSupported);
        }
        exec.checkActive();
        String id = Ids.VERSION_PREFIX + changeId;
        History.Recorded recorded = exec.history.get(id);
        if (recorded != null) {
            Integer v = exec.engine.codec.decode(
                    recorded.first(MarkerRecorded.class).value(), Integer.class, "version " + id);
            if (v == null || v < minSupported || v > maxSupported) {
                throw exec.nondeterministic(
                        "version of change '" + changeId + "' is " + v + " in the history, outside the " + "range "
                                + minSupported + ".." + maxSupported + " this code supports");
            }
            return v;
        }
        if (ctx.isReplaying()) {
            return minSupported;
        }
        Payload payload = exec.engine.codec.encode(maxSupported, "version " + id);
        ctx.record(seq -> new MarkerRecorded(exec.runId, seq, exec.now(), id, "version", payload));
        return maxSupported;
    }
}
