package io.worldflow.world.aws.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * How the index keys that many runs share are spread over partitions. DynamoDB writes one index partition key at about
 * 1,000 writes a second, so a key every run writes ({@code byCreated}'s constant, a status in {@code byStatus}, a
 * queue in {@code byDue}) caps the whole table there. Each such key is written as one of {@code count} shard keys
 * chosen by the id of the run (or schedule, or queue) it belongs to: shard 0 is the plain value, the value every item
 * had before sharding, and shard i &gt; 0 is the value, {@value #SEPARATOR_NAME}, and i. A query reads every shard
 * and merges them in the index's order.
 *
 * <p>The count may grow at any time without rewriting anything: an item keeps the shard it was written with until its
 * next change, and every shard below the old count is among those the new count reads. Lowering the count would hide
 * the items written in the shards dropped, so it is refused only by documentation (see the world-aws README).
 *
 * <p>The separator is a control character (U+001E, the record separator), which no queue name, search attribute name,
 * status or constant has (the runtime's own queues of waiting runs end with U+001F and a word, never U+001E); a
 * workflow name with it is refused ({@link #key}). So the plain value of a key read back is
 * everything before the separator ({@link #plain}).
 *
 * @param count the number of shards, 1 to {@value #MAX}
 */
record Shards(int count) {

    static final int MAX = 64;
    static final char SEPARATOR = '\u001E';
    private static final String SEPARATOR_NAME = "U+001E";

    static final Shards NONE = new Shards(1);

    Shards {
        if (count < 1 || count > MAX) {
            throw new IllegalArgumentException("shards must be 1.." + MAX + ", was " + count);
        }
    }

    /** The shard of the item of this id: a stable hash, the same in every process and release. */
    int of(String id) {
        if (count == 1) {
            return 0;
        }
        CRC32 crc = new CRC32();
        crc.update(id.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % count);
    }

    /**
     * The key {@code value} is written under for the item {@code id}.
     *
     * @throws IllegalArgumentException when the value holds the separator, so that its shard could not be told apart
     */
    String key(String value, String id) {
        if (value.indexOf(SEPARATOR) >= 0) {
            throw new IllegalArgumentException("'" + value.replace(SEPARATOR, '?') + "' holds the control character "
                    + SEPARATOR_NAME + ", which the AWS world keeps to separate a key from its shard");
        }
        return shard(value, of(id));
    }

    /** Every key {@code value} may be written under, shard 0 first. */
    List<String> keys(String value) {
        List<String> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(shard(value, i));
        }
        return out;
    }

    private static String shard(String value, int shard) {
        return shard == 0 ? value : value + SEPARATOR + shard;
    }

    /** The value a key read back stands for: the key less its shard; null for null. */
    static String plain(String key) {
        if (key == null) {
            return null;
        }
        int at = key.indexOf(SEPARATOR);
        return at < 0 ? key : key.substring(0, at);
    }
}
