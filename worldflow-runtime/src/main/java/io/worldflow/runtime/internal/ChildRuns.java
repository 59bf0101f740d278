package io.worldflow.runtime.internal;

import io.worldflow.ErrorInfo;
import io.worldflow.NonRetryableException;
import io.worldflow.ParentClosePolicy;
import io.worldflow.Payload;
import io.worldflow.RetryPolicy;
import io.worldflow.StartOptions;
import io.worldflow.event.ChildWorkflowStarted;
import io.worldflow.spi.OutgoingCancel;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The child runs a run has started and not yet heard the end of, with what becomes of each when the run ends
 * first; and how a child's end reaches its parent: a signal of a name no client may send ({@link #signalName}),
 * keyed by the child's run id, so that it is stored once however often the child's last turn is run.
 */
final class ChildRuns {

    /** How a child's end travels to its parent, as the signal's payload. */
    record Outcome(String status, Payload output, ErrorInfo error) {}

    /** Names of signals the runtime sends itself start with this; a client's may not. */
    static final String RESERVED_PREFIX = "@";

    private final Map<String, ParentClosePolicy> open = new LinkedHashMap<>();
    /** The child call that started each child run in this turn. */
    private final Map<String, String> startedBy = new HashMap<>();

    /** The children the history shows started and not ended; this turn adds the ones it starts. */
    ChildRuns(History history) {
        for (History.Recorded r : history.children()) {
            if (r.events.size() == 1 && r.events.getFirst() instanceof ChildWorkflowStarted started) {
                open.put(started.childRunId(), policy(started.parentClosePolicy()));
            }
        }
    }

    private static ParentClosePolicy policy(String stored) {
        return stored == null ? ParentClosePolicy.REQUEST_CANCEL : ParentClosePolicy.valueOf(stored);
    }

    /**
     * Whether a child that failed with {@code error} at attempt {@code attempt} is tried again under {@code policy}:
     * attempts are left, and neither the error's type nor a cause's is one the policy names as not retryable.
     */
    static boolean retryable(RetryPolicy policy, ErrorInfo error, int attempt) {
        if (attempt >= policy.maxAttempts()) {
            return false;
        }
        List<String> types = new ArrayList<>();
        types.add(error.type());
        if (error.causeTypes() != null) {
            types.addAll(error.causeTypes());
        }
        if (types.contains(NonRetryableException.class.getName())) {
            return false;
        }
        return policy.nonRetryable().stream().noneMatch(t -> types.contains(t.getName()));
    }

    /**
     * What a child's parent-close policy asks of a child its parent no longer waits for (the parent ended, or the child
     * lost a race): a cancellation, a termination, or nothing when the child is abandoned.
     */
    static Optional<OutgoingCancel> closing(String childRunId, ParentClosePolicy policy, String reason) {
        return policy == ParentClosePolicy.ABANDON
                ? Optional.empty()
                : Optional.of(new OutgoingCancel(childRunId, reason, policy == ParentClosePolicy.TERMINATE));
    }

    /** The signal that carries the end of child run {@code childRunId} to its parent. */
    static String signalName(String childRunId) {
        return RESERVED_PREFIX + "child:" + childRunId;
    }

    /**
     * A child's run id when the code gives none: the parent's id and the primitive's path, the same on every replay;
     * past the length a run id may have, a digest of them stands for the tail.
     */
    static String derivedId(String parentRunId, String primitiveId) {
        String id = parentRunId + "/" + primitiveId;
        if (id.length() <= StartOptions.MAX_ID_LENGTH) {
            return id;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
            return id.substring(0, StartOptions.MAX_ID_LENGTH - 33) + "#"
                    + HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** When a child last started or ended in this turn (nanoTime), or 0. */
    private volatile long activity;

    /** Notes that a child started or ended: more may follow soon. */
    void activity() {
        activity = System.nanoTime();
    }

    /**
     * Real time left, in nanoseconds, during which a turn whose threads all wait keeps them in memory for its
     * children: {@code stickyWait} after a child last started or ended, as a wait for a near timer does, so that
     * children ending one after another are heard without a replay each. Real time, not the run's clock: a child's
     * end comes from work elsewhere, not from time passing.
     */
    long busyNanos(Duration stickyWait) {
        long last = activity;
        return last == 0 ? 0 : stickyWait.toNanos() - (System.nanoTime() - last);
    }

    /**
     * Claims {@code childRunId} for the child call {@code primitiveId} of this turn: null when it is that call's, else
     * the call that holds it.
     */
    synchronized String claim(String childRunId, String primitiveId) {
        String holder = startedBy.putIfAbsent(childRunId, primitiveId);
        return holder == null || holder.equals(primitiveId) ? null : holder;
    }

    synchronized void opened(String childRunId, ParentClosePolicy policy) {
        open.put(childRunId, policy);
    }

    synchronized void closed(String childRunId) {
        open.remove(childRunId);
    }

    /** The children still running that the policy asks to cancel when this run ends. */
    synchronized Map<String, ParentClosePolicy> open() {
        return Map.copyOf(open);
    }
}
