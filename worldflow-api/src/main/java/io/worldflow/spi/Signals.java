package io.worldflow.spi;

import io.worldflow.Payload;

import java.util.List;

/** Durable, buffered signals: kept until a wait of the run consumes them, in arrival order per name. */
public interface Signals {

    /**
     * Stores the signal and makes the run due for a turn, atomically.
     *
     * @return the signal's id
     * @throws io.worldflow.RunNotFoundException when the run does not exist
     * @throws io.worldflow.RunFinishedException when it has finished
     */
    default long send(String runId, String name, Payload payload) {
        return send(runId, name, payload, null).id();
    }

    /**
     * Stores the signal and makes the run due for a turn, atomically; with a {@code key}, at most once per
     * run and key: when the run has already taken a signal with that key, nothing is stored and the first
     * signal's id is returned as a duplicate (even after that signal was consumed).
     *
     * @param key an idempotency key of at most 200 characters, or null for none
     * @throws io.worldflow.RunNotFoundException when the run does not exist
     * @throws io.worldflow.RunFinishedException when it has finished
     */
    default SignalSent send(String runId, String name, Payload payload, String key) {
        return send(runId, name, payload, key, null);
    }

    /**
     * As {@link #send(String, String, Payload, String)}, noting who sent it ({@link io.worldflow.Actors}), which the
     * pending signal carries.
     *
     * @param actor who sent it, or null when not known
     */
    SignalSent send(String runId, String name, Payload payload, String key, String actor);

    /** The run's unconsumed signals in arrival order. */
    List<PendingSignal> pending(String runId);

    /**
     * Revokes the run's signal URL whose token has this id ({@link RevokedUrl#tokenId}): from when this returns, every
     * process of the world refuses it. Revoking one already revoked keeps the first revocation. The revocations go with
     * the run when it is purged.
     *
     * @param actor who revokes it, or null when not known
     * @throws io.worldflow.RunNotFoundException when the run does not exist
     * @throws IllegalArgumentException           when the token id is blank or too long
     *                                            ({@link RevokedUrl#checkTokenId})
     */
    void revokeUrl(String runId, String tokenId, String actor);

    /** The run's revoked signal URLs, in the order they were revoked; empty for a run with none, or unknown. */
    List<RevokedUrl> revokedUrls(String runId);
}
