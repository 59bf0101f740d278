package io.worldflow.spi;

import java.util.Objects;

/**
 * One record of a run's log as the world stores it: the events {@code seq .. lastSeq} of one append, in the text
 * {@link EventCodec#encodeAll} made of them, and the record's link in the run's hash chain.
 *
 * @param seq     the first event's seq
 * @param lastSeq the last event's seq
 * @param text    the record exactly as stored
 * @param link    its link as stored, or null for a record written before the world kept links
 */
public record StoredRecord(long seq, long lastSeq, String text, byte[] link) {

    public StoredRecord {
        Objects.requireNonNull(text, "text");
    }
}
