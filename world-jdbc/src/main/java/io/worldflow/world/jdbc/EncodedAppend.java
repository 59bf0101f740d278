package io.worldflow.world.jdbc;

import io.worldflow.spi.Append;
import io.worldflow.spi.EventCodec;
import io.worldflow.spi.NewRun;

import java.util.ArrayList;
import java.util.List;

/**
 * An append with its JSON made before the write transaction, so that rows are locked briefly: its events as one
 * record ({@link EventCodec#encodeAll}, null when it has none), its error, if it carries one, and the first record of
 * each run it starts.
 *
 * @param append the append
 * @param events its events as one stored record, or null when it has none
 * @param error  its error as JSON, or null
 * @param starts the {@code WorkflowStarted} record of each of {@link Append#starts}, in order
 */
public record EncodedAppend(Append append, String events, String error, List<String> starts) {

    public EncodedAppend {
        starts = List.copyOf(starts);
    }

    /** Each append encoded, in order. */
    public static List<EncodedAppend> of(EventCodec codec, List<Append> appends) {
        List<EncodedAppend> out = new ArrayList<>(appends.size());
        for (Append a : appends) {
            List<String> starts = new ArrayList<>(a.starts().size());
            for (NewRun run : a.starts()) {
                starts.add(codec.encodeAll(List.of(run.startedEvent())));
            }
            out.add(new EncodedAppend(
                    a,
                    a.events().isEmpty() ? null : codec.encodeAll(a.events()),
                    a.error() == null ? null : codec.encodeError(a.error()),
                    starts));
        }
        return out;
    }

    /** Whether any of the appends has effects on other runs ({@link Append#hasEffects}). */
    public static boolean anyEffects(List<EncodedAppend> appends) {
        return appends.stream().anyMatch(e -> e.append().hasEffects());
    }
}
