package io.worldflow.world.aws.internal;

import io.worldflow.event.Event;
import io.worldflow.spi.EventCodec;
import io.worldflow.world.aws.PayloadTooLargeException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.worldflow.world.aws.internal.Attrs.b;
import static io.worldflow.world.aws.internal.Attrs.n;
import static io.worldflow.world.aws.internal.Attrs.s;

/**
 * How an append's events are laid out in the events table: their log record ({@link EventCodec#encodeAll}, the form
 * the SQL worlds store, with its format version), cut into parts of at most {@value #PART_BYTES} bytes, one item per
 * part, keyed ({@code run}, {@code <lastSeq>.<part>}). So one append is a handful of items whatever its number of
 * events (the transaction limit is 100 items), and an event larger than DynamoDB's 400 KB item limit spans several
 * parts. A query for keys from {@code <fromSeq>} on returns exactly the appends holding seq ≥ fromSeq.
 *
 * <p>Items written before the log record was used here hold each event's own JSON object ({@link EventCodec#encode}),
 * one per line: their text begins with an object where a log record begins with an array, and they read as they did.
 */
final class EventPages {

    /** Bytes of JSON per item, below DynamoDB's 400 KB item limit with room for the key and attribute names. */
    static final int PART_BYTES = 300_000;
    /** Encoded events of one append, at most: its parts and the run's item fit DynamoDB's 4 MB transaction limit. */
    static final int MAX_APPEND_BYTES = 3 * 1024 * 1024;

    static final String RUN = "run";
    static final String KEY = "k";
    static final String FIRST = "f";
    static final String LAST = "l";
    static final String PARTS = "np";
    static final String DATA = "d";

    private EventPages() {}

    /** The items holding these consecutive events of one run. */
    static List<Map<String, AttributeValue>> items(String runId, List<Event> events, EventCodec codec) {
        if (events.isEmpty()) {
            return List.of();
        }
        byte[] bytes = codec.encodeAll(events).getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_APPEND_BYTES) {
            throw new PayloadTooLargeException(
                    "an append of " + events.size() + " event(s) to run " + runId + " (seq "
                            + events.getFirst().seq() + ".." + events.getLast().seq() + ")",
                    bytes.length,
                    MAX_APPEND_BYTES);
        }
        long first = events.getFirst().seq();
        long last = events.getLast().seq();
        int parts = Math.max(1, (bytes.length + PART_BYTES - 1) / PART_BYTES);
        List<Map<String, AttributeValue>> items = new ArrayList<>(parts);
        for (int p = 0; p < parts; p++) {
            int from = p * PART_BYTES;
            int to = Math.min(bytes.length, from + PART_BYTES);
            byte[] part = Arrays.copyOfRange(bytes, from, to);
            Map<String, AttributeValue> item = new HashMap<>();
            item.put(RUN, s(runId));
            item.put(KEY, s(key(last, p)));
            item.put(FIRST, n(first));
            item.put(LAST, n(last));
            item.put(PARTS, n(parts));
            item.put(DATA, b(part));
            items.add(item);
        }
        return items;
    }

    static String key(long lastSeq, int part) {
        return Attrs.pad(lastSeq) + "." + String.format("%03d", part);
    }

    /** The lower bound of the keys holding seq ≥ {@code fromSeq}. */
    static String from(long fromSeq) {
        return Attrs.pad(fromSeq);
    }

    /**
     * Collects items in key order into events; {@link #add} returns the complete appends' events as their
     * last part arrives.
     */
    static final class Reader {
        private final EventCodec codec;
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
        private long pendingLast = -1;
        private int partsSeen;

        Reader(EventCodec codec) {
            this.codec = codec;
        }

        List<Event> add(Map<String, AttributeValue> item) {
            long last = Long.parseLong(item.get(LAST).n());
            int parts = Integer.parseInt(item.get(PARTS).n());
            if (last != pendingLast) {
                pending.reset();
                partsSeen = 0;
                pendingLast = last;
            }
            pending.writeBytes(item.get(DATA).b().asByteArray());
            partsSeen++;
            if (partsSeen < parts) {
                return List.of();
            }
            String text = pending.toString(StandardCharsets.UTF_8);
            pending.reset();
            partsSeen = 0;
            pendingLast = -1;
            if (!text.startsWith("{")) {
                return codec.decodeAll(
                        item.get(RUN).s(), Long.parseLong(item.get(FIRST).n()), text);
            }
            List<Event> out = new ArrayList<>();
            for (String line : text.split("\n")) {
                out.add(codec.decode(line));
            }
            return out;
        }
    }
}
