package io.worldflow.world.aws.internal;

import io.worldflow.event.Event;
import io.worldflow.format.ChainKey;
import io.worldflow.format.LogChain;
import io.worldflow.spi.EventCodec;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.StoredRecord;
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
 * <p>The record's link in the run's hash chain ({@link LogChain#link}) is kept on its first part only, as binary
 * {@value #LINK}: the link belongs to the record, not to the way it is cut, and one copy cannot disagree with another.
 * Items written before the world kept links have none.
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
    /** The record's link in the run's hash chain, on its first part. */
    static final String LINK = "h";

    private EventPages() {}

    /**
     * The log record of these consecutive events of one run, cut into its parts; {@link Record#items} links it into
     * the run's chain. No events make no record ({@link Record#isEmpty}).
     */
    static Record record(String runId, List<Event> events, EventCodec codec) {
        if (events.isEmpty()) {
            return new Record(runId, -1, -1, List.of(), null);
        }
        String text = codec.encodeAll(events);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
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
        return new Record(runId, first, last, List.copyOf(items), LogChain.digest(text));
    }

    /** The record of a new run: its {@code WorkflowStarted}, the first link of its chain. */
    static Record started(NewRun run, EventCodec codec) {
        return record(run.runId(), List.of(run.startedEvent()), codec);
    }

    /**
     * One append's log record, encoded once and linked at each attempt to write it, over the head read then.
     *
     * @param parts  its items, without the link
     * @param digest what its link covers of its text ({@link LogChain#digest})
     */
    record Record(String runId, long seq, long lastSeq, List<Map<String, AttributeValue>> parts, byte[] digest) {

        /** Whether there is no record: an append of no events, which leaves the log and its head alone. */
        boolean isEmpty() {
            return parts.isEmpty();
        }

        /**
         * Its link chained over {@code head}, the run's head as read (null when the run has none: the genesis); null
         * when there is no record.
         */
        byte[] link(byte[] head, ChainKey key) {
            return isEmpty() ? null : LogChain.link(runId, head, seq, lastSeq, digest, key);
        }

        /** The items to write, the first carrying {@code link}; none when there is no record. */
        List<Map<String, AttributeValue>> items(byte[] link) {
            if (isEmpty()) {
                return List.of();
            }
            List<Map<String, AttributeValue>> out = new ArrayList<>(parts);
            Map<String, AttributeValue> first = new HashMap<>(parts.getFirst());
            first.put(LINK, b(link));
            out.set(0, first);
            return out;
        }

        /** Bytes of its text. */
        long bytes() {
            long bytes = 0;
            for (Map<String, AttributeValue> part : parts) {
                bytes += part.get(DATA).b().asByteArrayUnsafe().length;
            }
            return bytes;
        }
    }

    static String key(long lastSeq, int part) {
        return Attrs.pad(lastSeq) + "." + String.format("%03d", part);
    }

    /** The lower bound of the keys holding seq ≥ {@code fromSeq}. */
    static String from(long fromSeq) {
        return Attrs.pad(fromSeq);
    }

    /** The upper bound of the keys of the records ending at seq ≤ {@code lastSeq} (a record has far fewer parts). */
    static String through(long lastSeq) {
        return key(lastSeq, 999);
    }

    /**
     * Collects items in key order into whole records as stored: {@link #add} returns a record as its last part
     * arrives, else null. A record some of whose parts are missing is dropped when the next record's part arrives.
     */
    static final class Assembler {
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
        private long pendingLast = -1;
        private int partsSeen;
        private byte[] link;

        StoredRecord add(Map<String, AttributeValue> item) {
            long last = Long.parseLong(item.get(LAST).n());
            int parts = Integer.parseInt(item.get(PARTS).n());
            if (last != pendingLast) {
                pending.reset();
                partsSeen = 0;
                pendingLast = last;
                link = item.containsKey(LINK) ? item.get(LINK).b().asByteArray() : null;
            }
            pending.writeBytes(item.get(DATA).b().asByteArrayUnsafe());
            partsSeen++;
            if (partsSeen < parts) {
                return null;
            }
            String text = pending.toString(StandardCharsets.UTF_8);
            pending.reset();
            partsSeen = 0;
            pendingLast = -1;
            return new StoredRecord(Long.parseLong(item.get(FIRST).n()), last, text, link);
        }
    }

    /**
     * Collects items in key order into events; {@link #add} returns the complete appends' events as their
     * last part arrives.
     */
    static final class Reader {
        private final EventCodec codec;
        private final Assembler assembler = new Assembler();

        Reader(EventCodec codec) {
            this.codec = codec;
        }

        List<Event> add(Map<String, AttributeValue> item) {
            StoredRecord record = assembler.add(item);
            if (record == null) {
                return List.of();
            }
            String text = record.text();
            if (!text.startsWith("{")) {
                return codec.decodeAll(item.get(RUN).s(), record.seq(), text);
            }
            List<Event> out = new ArrayList<>();
            for (String line : text.split("\n")) {
                out.add(codec.decode(line));
            }
            return out;
        }
    }
}
