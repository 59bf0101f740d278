package io.worldflow.world.jdbc;

import io.worldflow.format.ChainKey;
import io.worldflow.format.LogChain;
import io.worldflow.spi.Append;
import io.worldflow.spi.EventCodec;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.SearchValues;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An append with its JSON made before the write transaction, so that rows are locked briefly: its events as one
 * record ({@link EventCodec#encodeAll}, null when it has none) with the hash its link covers of it, its error, if it
 * carries one, and the first record of each run it starts.
 *
 * @param append the append
 * @param events its events as one stored record, or null when it has none
 * @param digest the record's {@link LogChain#digest}, or null when it has no events or the world makes it in its write
 * @param error  its error as JSON, or null
 * @param starts the {@code WorkflowStarted} record of each of {@link Append#starts}, in order
 * @param link   the record's link when the world computed it before the write ({@link #withLink}), else null
 */
public record EncodedAppend(
        Append append, String events, byte[] digest, String error, List<String> starts, byte[] link) {

    public EncodedAppend {
        starts = List.copyOf(starts);
    }

    /**
     * Each append encoded, in order, with its record's digest when {@code digests} (a world that links records in
     * its own write, with the database's hash function, needs none).
     */
    public static List<EncodedAppend> of(EventCodec codec, List<Append> appends, boolean digests) {
        List<EncodedAppend> out = new ArrayList<>(appends.size());
        for (Append a : appends) {
            List<String> starts = new ArrayList<>(a.starts().size());
            for (NewRun run : a.starts()) {
                starts.add(codec.encodeAll(List.of(run.startedEvent())));
            }
            String events = a.events().isEmpty() ? null : codec.encodeAll(a.events());
            out.add(new EncodedAppend(
                    a,
                    events,
                    events == null || !digests ? null : LogChain.digest(events),
                    a.error() == null ? null : codec.encodeError(a.error()),
                    starts,
                    null));
        }
        return out;
    }

    /** What its events change of its run's search attributes ({@link SearchValues#changes(List)}). */
    public Map<String, String> searchChanges() {
        return SearchValues.changes(append.events());
    }

    /** Whether any of the appends changes its run's search attributes. */
    public static boolean anySearchChanges(List<EncodedAppend> appends) {
        for (EncodedAppend e : appends) {
            if (!e.searchChanges().isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The link of the record these events make, chained over {@code head}, the run's head when it is written, keyed
     * with {@code key} unless it is null.
     */
    public byte[] link(byte[] head, ChainKey key) {
        Append a = append;
        byte[] d = digest != null ? digest : LogChain.digest(events);
        return LogChain.link(a.runId(), head, a.expectedSeq(), a.nextSeq() - 1, d, key);
    }

    /** This append with its record's link computed before the write (a keyed chain where the store cannot). */
    public EncodedAppend withLink(byte[] value) {
        return new EncodedAppend(append, events, digest, error, starts, value);
    }

    /** Whether any of the appends has effects on other runs ({@link Append#hasEffects}). */
    public static boolean anyEffects(List<EncodedAppend> appends) {
        return appends.stream().anyMatch(e -> e.append().hasEffects());
    }
}
