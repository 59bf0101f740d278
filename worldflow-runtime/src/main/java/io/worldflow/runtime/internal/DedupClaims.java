package io.worldflow.runtime.internal;

import io.worldflow.RunInfo;
import io.worldflow.WorldflowException;
import io.worldflow.spi.StoredQueue;
import io.worldflow.spi.World;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Deduplication ids: the run that holds one in a queue, kept as a record of the world's queue store (under a name that
 * begins with a control character, so that it is never a queue's), written by compare and set. A start takes the id
 * when no record holds it or the run that holds it has ended; a run that holds one and does not exist yet (its start
 * is under way, or died before creating it) keeps it for {@link #GRACE}. A record stays after its run ends, for the next
 * start with the id to take over.
 */
final class DedupClaims {

    /** Where the records' names begin: before every queue name, which has no control character. */
    static final String PREFIX = "\u001fdedup\u001f";

    /** A name after every record's and before every queue's, to list queues from. */
    static final String AFTER_ALL = "\u001f\u007f";

    static final Duration GRACE = Duration.ofMinutes(1);
    private static final int ATTEMPTS = 8;

    /** Who holds the id, since when. */
    record Claim(String run, String dedupId, Instant at) {}

    private final World world;
    private final InstantSource clock;

    DedupClaims(World world, InstantSource clock) {
        this.world = world;
        this.clock = clock;
    }

    /**
     * Takes {@code dedupId} in {@code queue} for {@code runId}.
     *
     * @return the active run that holds it, or empty when {@code runId} holds it now
     */
    Optional<String> claim(String queue, String dedupId, String runId) {
        String name = PREFIX + queue + "\u001f" + digest(dedupId);
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Instant now = clock.instant();
            String body = encode(new Claim(runId, dedupId, now));
            Optional<StoredQueue> stored = world.queues().get(name);
            if (stored.isEmpty()) {
                if (world.queues().create(new StoredQueue(name, body, 1, now))) {
                    return Optional.empty();
                }
                continue;
            }
            Claim held = decode(stored.get());
            if (held.run().equals(runId)) {
                return Optional.empty(); // a start of the same run again: creating it returns the run
            }
            Optional<RunInfo> holder = world.runQueries().get(held.run());
            boolean active = holder.isPresent()
                    ? !holder.get().status().isTerminal()
                    : held.at().isAfter(now.minus(GRACE));
            if (active) {
                return Optional.of(held.run());
            }
            if (world.queues().replace(stored.get().next(body, now))) {
                return Optional.empty();
            }
        }
        throw new WorldflowException(
                "deduplication id '" + dedupId + "' of queue '" + queue + "' is being taken by others; try again");
    }

    private static String digest(String dedupId) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(dedupId.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static String encode(Claim c) {
        return StoredText.write(c, "a deduplication claim");
    }

    private static Claim decode(StoredQueue q) {
        return StoredText.read(q.body(), Claim.class, "a deduplication claim");
    }
}
