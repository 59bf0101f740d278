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
        exec.threads.checkActive();
        if (exec.engine.replay != null) {
            throw exec.engine.replay.live(exec, "computes " + kind + " '" + id + "'");
        }
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
     * oldest; else the newest, recorded. Once decided in a turn it stays so for the rest of the turn: a run that passed
     * the change's first call before the change existed follows the oldest version at every later call too, not the
     * newest at the first call its code makes live (that would record a version its earlier calls did not follow, and
     * the next replay would give those calls the newest).
     */
    static int version(RunContext ctx, String changeId, int minSupported, int maxSupported) {
        RunExecution exec = ctx.exec;
        Ids.checkName("changeId", changeId);
        if (minSupported > maxSupported) {
            throw new IllegalArgumentException(
                    "version range is empty: min " + minSupported + " > max " + maxSupported);
        }
        exec.threads.checkActive();
        String id = Ids.VERSION_PREFIX + changeId;
        History.Recorded recorded = exec.history.get(id);
        Integer v = recorded != null
                ? exec.engine.codec.decode(recorded.first(MarkerRecorded.class).value(), Integer.class, "version " + id)
                : exec.versions.get(id);
        if (v != null || recorded != null) {
            if (v == null || v < minSupported || v > maxSupported) {
                throw exec.nondeterministic("version of change '" + changeId + "' is " + v + " in the "
                        + (recorded != null ? "history" : "run's earlier calls") + ", outside the range "
                        + minSupported + ".." + maxSupported + " this code supports");
            }
            return v;
        }
        if (ctx.isReplaying()) {
            exec.versions.put(id, minSupported);
            return minSupported;
        }
        Payload payload = exec.engine.codec.encode(maxSupported, "version " + id);
        ctx.record(seq -> new MarkerRecorded(exec.runId, seq, exec.now(), id, "version", payload));
        exec.versions.put(id, maxSupported);
        return maxSupported;
    }
}
