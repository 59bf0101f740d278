package io.worldflow.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.worldflow.ChainReport;
import io.worldflow.SerializationException;
import io.worldflow.spi.StoredLog;
import io.worldflow.spi.StoredRecord;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * The hash chain over a run's log, the one every world writes and every check reads. Each record (the events of one
 * append, as stored) has a link:
 *
 * <pre>
 *   link    = 0x01 ‖ SHA-256(previous ‖ int64(seq) ‖ int64(lastSeq) ‖ SHA-256(record's UTF-8 bytes))
 *   genesis = 0x01 ‖ SHA-256(UTF-8 of "worldflow-log:" + runId)     (the "previous" of a run's first linked record)
 * </pre>
 *
 * with integers big-endian and the leading byte the chain's version ({@link #VERSION}). The run's head is its last
 * record's link. A world computes the links as it writes, each over the head it finds, so a record changed, removed,
 * moved or re-numbered afterwards no longer matches its link, and a log cut short no longer ends at its head.
 *
 * <p>What that proves: that the log is as it was written, against anyone who edits records without recomputing the
 * links after them (a wrong fix, a restored backup, a careless or hurried edit, corruption). Someone with write access
 * to the database who recomputes every later link and the head can make a consistent forgery; against that, keep the
 * head of the runs that matter outside the database (an export, a ticket, a log shipper), since no later head can be
 * made to match a head taken earlier.
 *
 * <p>An export ({@link #export}) holds the records exactly as stored, so a log can be checked away from its world.
 */
public final class LogChain {

    /** The version of the links this writes and checks: their first byte. */
    public static final int VERSION = 1;

    /** The version of a keyed link ({@link ChainKey}): an HMAC-SHA256 where a version 1 link has a SHA-256 hash. */
    public static final int KEYED_VERSION = 2;

    /** The length of a link: the version byte and a SHA-256 hash. */
    public static final int LINK_BYTES = 33;

    /** What a run's id follows in the text its {@link #genesis} hashes. */
    public static final String GENESIS_PREFIX = "worldflow-log:";

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final MessageDigest SHA_256 = lookUp();

    private LogChain() {}

    /** The SHA-256 hash of a record's UTF-8 bytes: what its link covers of it. */
    public static byte[] digest(String record) {
        return sha256().digest(record.getBytes(StandardCharsets.UTF_8));
    }

    /** The link the first record of a run chains from. */
    public static byte[] genesis(String runId) {
        return genesis(runId, null);
    }

    /** The link the first record of a run chains from: keyed with {@code key}, unless it is null. */
    public static byte[] genesis(String runId, ChainKey key) {
        byte[] text = (GENESIS_PREFIX + runId).getBytes(StandardCharsets.UTF_8);
        return key == null ? versioned(VERSION, sha256().digest(text)) : versioned(KEYED_VERSION, key.mac(text));
    }

    /**
     * The link of the record of events {@code seq .. lastSeq} whose bytes hash to {@code digest}, chained over
     * {@code previous} (the run's head before it), or over the run's {@link #genesis} when {@code previous} is null.
     */
    public static byte[] link(String runId, byte[] previous, long seq, long lastSeq, byte[] digest) {
        return link(runId, previous, seq, lastSeq, digest, null);
    }

    /**
     * The link of a record as {@link #link(String, byte[], long, long, byte[])} makes it, keyed with {@code key}
     * ({@link #KEYED_VERSION}) unless it is null.
     */
    public static byte[] link(String runId, byte[] previous, long seq, long lastSeq, byte[] digest, ChainKey key) {
        byte[] before = previous == null ? genesis(runId, key) : previous;
        byte[] range = ByteBuffer.allocate(16).putLong(seq).putLong(lastSeq).array();
        if (key != null) {
            return versioned(KEYED_VERSION, key.mac(before, range, digest));
        }
        MessageDigest sha = sha256();
        sha.update(before);
        sha.update(range);
        sha.update(digest);
        return versioned(VERSION, sha.digest());
    }

    /** The link of a record from its text ({@link #link(String, byte[], long, long, byte[])}). */
    public static byte[] link(String runId, byte[] previous, long seq, long lastSeq, String record) {
        return link(runId, previous, seq, lastSeq, digest(record));
    }

    /** Why a record that is not keyed breaks a chain whose key is required. */
    private static String unkeyed(StoredRecord r, String what) {
        return "the record of " + range(r.seq(), r.lastSeq()) + " " + what + ", and the chain's key is required of"
                + " every record (" + ChainKey.REQUIRED + "): it was written before the key was configured, or its"
                + " link was stripped or remade by someone without the key";
    }

    /** A link as lower-case hex; null for null. */
    public static String hex(byte[] link) {
        return link == null ? null : HexFormat.of().formatHex(link);
    }

    /**
     * Checks the chain of a log as stored: every record follows the one before it (no seq missing, none out of place),
     * every link is the one its record and the link before it make, the last record ends at the run's length and its
     * link is the run's head. Records written before the world kept links may precede the chain; one without a link
     * after a linked one breaks it. Reports the first seq where it breaks.
     */
    public static ChainReport verify(StoredLog log) {
        return verify(log, null);
    }

    /**
     * Checks the chain as {@link #verify(StoredLog)} does, the keyed links ({@link #KEYED_VERSION}) with {@code key}:
     * without it, the first keyed link is reported as one that cannot be checked. With a key that is
     * {@linkplain ChainKey#required() required} (the default), a record without a link or with an unkeyed one breaks
     * the chain too: anyone can make those. With any key, an unkeyed link after a keyed one does.
     */
    public static ChainReport verify(StoredLog log, ChainKey key) {
        String runId = log.runId();
        byte[] previous = null;
        long expected = 0;
        long chainedFrom = -1;
        boolean keyedOnly = key != null && key.required();
        boolean keyedSeen = false;
        for (StoredRecord r : log.records()) {
            if (r.seq() != expected) {
                return r.seq() > expected
                        ? broken(
                                log,
                                chainedFrom,
                                expected,
                                "events " + range(expected, r.seq() - 1)
                                        + " are missing: the next record begins at seq " + r.seq())
                        : broken(
                                log,
                                chainedFrom,
                                r.seq(),
                                "a record of " + range(r.seq(), r.lastSeq()) + " is out of place: seq " + expected
                                        + " was expected next");
            }
            if (r.lastSeq() < r.seq()) {
                return broken(
                        log,
                        chainedFrom,
                        r.seq(),
                        "the record at seq " + r.seq() + " ends before it begins (" + r.lastSeq() + ")");
            }
            if (r.link() == null) {
                if (keyedOnly) {
                    return broken(log, chainedFrom, r.seq(), unkeyed(r, "has no link"));
                }
                if (chainedFrom >= 0) {
                    return broken(
                            log,
                            chainedFrom,
                            r.seq(),
                            "the record of " + range(r.seq(), r.lastSeq())
                                    + " has no link, though records before it do");
                }
                expected = r.lastSeq() + 1;
                continue;
            }
            if (chainedFrom < 0) {
                chainedFrom = r.seq();
            }
            int version = r.link().length == LINK_BYTES ? r.link()[0] : -1;
            if (version != VERSION && version != KEYED_VERSION) {
                return broken(
                        log,
                        chainedFrom,
                        r.seq(),
                        "the record of " + range(r.seq(), r.lastSeq())
                                + " has a link of a version or length this release does not know");
            }
            if (version == VERSION && keyedSeen) {
                return broken(
                        log,
                        chainedFrom,
                        r.seq(),
                        "the record of " + range(r.seq(), r.lastSeq()) + " has an unkeyed link after keyed ones: it was"
                                + " relinked by someone without the chain's key, or the key was taken out of the"
                                + " configuration");
            }
            if (version == VERSION && keyedOnly) {
                return broken(log, chainedFrom, r.seq(), unkeyed(r, "has an unkeyed link, which anyone can make"));
            }
            keyedSeen |= version == KEYED_VERSION;
            if (version == KEYED_VERSION && key == null) {
                return broken(
                        log,
                        chainedFrom,
                        r.seq(),
                        "the record of " + range(r.seq(), r.lastSeq()) + " has a keyed link: checking it needs the"
                                + " chain's key (" + ChainKey.KEY + ")");
            }
            byte[] computed = link(
                    runId, previous, r.seq(), r.lastSeq(), digest(r.text()), version == KEYED_VERSION ? key : null);
            if (!same(computed, r.link())) {
                return broken(
                        log,
                        chainedFrom,
                        r.seq(),
                        "the record of " + range(r.seq(), r.lastSeq())
                                + " does not match its link: its bytes, its place or the link itself changed after it was"
                                + " written"
                                + (version == KEYED_VERSION ? ", or the key given is not its chain's" : ""));
            }
            previous = r.link();
            expected = r.lastSeq() + 1;
        }
        if (expected < log.logLength()) {
            return broken(
                    log,
                    chainedFrom,
                    expected,
                    (expected == 0 ? "the log holds no record" : "the log ends at seq " + (expected - 1))
                            + " but the run's length is " + log.logLength() + ": events "
                            + range(expected, log.logLength() - 1) + " are missing");
        }
        if (expected > log.logLength()) {
            return broken(
                    log,
                    chainedFrom,
                    log.logLength(),
                    "the log holds events up to seq " + (expected - 1) + " but the run's length is " + log.logLength());
        }
        if (!same(previous, log.head())) {
            return broken(
                    log,
                    chainedFrom,
                    Math.max(0, expected - 1),
                    log.head() == null
                            ? "the run has no head, though its records are linked"
                            : "the run's head does not match its last record's link: records after it were removed, or the"
                                    + " head was changed");
        }
        return new ChainReport(
                runId, log.logLength(), chainedFrom < 0 ? log.logLength() : chainedFrom, hex(log.head()), null, null);
    }

    /**
     * A log as a self-contained JSON document that {@link #read} reads back and {@link #verify} checks: the run, its
     * length and head, and every record exactly as stored with its link. The records are the events themselves
     * ({@link EventFormat#decodeAll}), so the export is a timeline as well as its proof.
     */
    public static String export(StoredLog log) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("chain", VERSION);
        root.put("runId", log.runId());
        root.put("logLength", log.logLength());
        root.put("head", hex(log.head()));
        ArrayNode records = root.putArray("records");
        for (StoredRecord r : log.records()) {
            ObjectNode o = records.addObject();
            o.put("seq", r.seq());
            o.put("lastSeq", r.lastSeq());
            o.put("link", hex(r.link()));
            o.put("record", r.text());
        }
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new SerializationException("cannot write the log of run " + log.runId(), e);
        }
    }

    /**
     * The log of an export written by {@link #export}.
     *
     * @throws SerializationException when the text is not such an export, or of a later chain version
     */
    public static StoredLog read(String export) {
        JsonNode root;
        try {
            root = MAPPER.readTree(export);
        } catch (JsonProcessingException e) {
            throw new SerializationException("cannot read a log export: " + e.getOriginalMessage(), e);
        }
        if (root == null
                || !root.isObject()
                || !root.path("chain").isInt()
                || !root.path("runId").isTextual()
                || !root.path("records").isArray()) {
            throw new SerializationException("not a log export: it needs chain, runId and records", null);
        }
        if (root.get("chain").intValue() > VERSION) {
            throw new SerializationException(
                    "a log export of chain version " + root.get("chain").intValue() + ", newer than this release's "
                            + VERSION,
                    null);
        }
        List<StoredRecord> records = new ArrayList<>();
        for (JsonNode r : root.get("records")) {
            if (!r.path("seq").canConvertToLong()
                    || !r.path("lastSeq").canConvertToLong()
                    || !r.path("record").isTextual()) {
                throw new SerializationException("a record of the log export lacks seq, lastSeq or record", null);
            }
            records.add(new StoredRecord(
                    r.get("seq").longValue(),
                    r.get("lastSeq").longValue(),
                    r.get("record").textValue(),
                    unhex(r.path("link"))));
        }
        return new StoredLog(
                root.get("runId").textValue(),
                root.path("logLength")
                        .asLong(records.isEmpty() ? 0 : records.getLast().lastSeq() + 1),
                unhex(root.path("head")),
                records);
    }

    private static byte[] unhex(JsonNode node) {
        if (node.isNull() || node.isMissingNode()) {
            return null;
        }
        try {
            return HexFormat.of().parseHex(node.asText());
        } catch (IllegalArgumentException e) {
            throw new SerializationException("a link of the log export is not hex: " + node.asText(), e);
        }
    }

    private static ChainReport broken(StoredLog log, long chainedFrom, long at, String problem) {
        return new ChainReport(log.runId(), log.logLength(), Math.max(0, chainedFrom), hex(log.head()), at, problem);
    }

    private static String range(long from, long to) {
        return from == to ? "seq " + from : "seq " + from + ".." + to;
    }

    private static byte[] versioned(int version, byte[] hash) {
        byte[] out = new byte[LINK_BYTES];
        out[0] = (byte) version;
        System.arraycopy(hash, 0, out, 1, hash.length);
        return out;
    }

    /**
     * A fresh SHA-256 digest, cloned from one looked up once: a lookup by name goes through the security providers
     * each time, several times the cost of hashing a record, where a clone copies a few words of state.
     */
    private static MessageDigest sha256() {
        try {
            return (MessageDigest) SHA_256.clone();
        } catch (CloneNotSupportedException e) {
            return lookUp();
        }
    }

    private static MessageDigest lookUp() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** Whether two links are the same; null matches null. */
    public static boolean same(byte[] a, byte[] b) {
        return a == null ? b == null : b != null && Arrays.equals(a, b);
    }
}
