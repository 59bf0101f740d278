package io.worldflow.world.jdbc;

import io.worldflow.spi.Append;
import io.worldflow.spi.EventCodec;

import java.util.ArrayList;
import java.util.List;

/**
 * An append with its JSON made before the write transaction, so that rows are locked briefly: its events as one
 * record ({@link EventCodec#encodeAll}, null when it has none) and its error, if it carries one.
 *
 * @param append the append
 * @param events its events as one stored record, or null when it has none
 * @param error  its error as JSON, or null
 */
public record EncodedAppend(Append append, String events, String error) {

    /** Each append encoded, in order. */
    public static List<EncodedAppend> of(EventCodec codec, List<Append> appends) {
        List<EncodedAppend> out = new ArrayList<>(appends.size());
        for (Append a : appends) {
            out.add(new EncodedAppend(
                    a,
                    a.events().isEmpty() ? null : codec.encodeAll(a.events()),
                    a.error() == null ? null : codec.encodeError(a.error())));
        }
        return out;
    }
}
