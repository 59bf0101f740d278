package io.worldflow.world.aws.internal;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;

import static io.worldflow.world.aws.internal.Attrs.n;
import static io.worldflow.world.aws.internal.Attrs.num;
import static io.worldflow.world.aws.internal.Attrs.s;
import static io.worldflow.world.aws.internal.Attrs.str;

/**
 * A run's turn, kept on its item in the runs table (all instants in epoch microseconds). A run has at most
 * one turn: pending ({@code due}) or leased ({@code token} until {@code expires}, with a turn {@code requested}
 * meanwhile). Every change raises {@code version}, which fences concurrent changes (conditional writes).
 * The {@code byDue} index is keyed by the queue and {@link #available()}: the due time of a pending turn,
 * the expiry of a leased one (when it is delivered again).
 *
 * @param queue      the run's queue while it has a turn, else null (the index is sparse)
 * @param due        when a pending turn is due; null while leased or without a turn
 * @param token      the lease's token, or null
 * @param expires    when the lease lapses
 * @param requested  a turn asked for while leased: due then, after the lease ends
 * @param deliveries times the current turn was leased
 * @param version    raised by every change
 */
record TurnState(String queue, Long due, String token, Long expires, Long requested, int deliveries, long version) {

    static final String QUEUE = "tq";
    static final String KEY = "tk";
    static final String AVAILABLE = "tAvail";
    static final String TOKEN = "tLease";
    static final String EXPIRES = "tExp";
    static final String REQUESTED = "tReq";
    static final String DELIVERIES = "tDel";
    static final String VERSION = "tVer";

    static TurnState pending(String queue, long due, long version) {
        return new TurnState(queue, due, null, null, null, 0, version);
    }

    static TurnState of(Map<String, AttributeValue> item) {
        Long expires = num(item, EXPIRES);
        String token = str(item, TOKEN);
        String queue = str(item, QUEUE);
        return new TurnState(
                queue,
                token == null && queue != null ? num(item, AVAILABLE) : null,
                token,
                expires,
                num(item, REQUESTED),
                (int) num(item, DELIVERIES, 0),
                num(item, VERSION, 0));
    }

    boolean hasTurn() {
        return queue != null;
    }

    boolean isLeased() {
        return token != null;
    }

    /** When this turn can be leased: its due time, or its lease's expiry; null without a turn. */
    Long available() {
        if (!hasTurn()) {
            return null;
        }
        return isLeased() ? expires : due;
    }

    // ---- transitions; each returns the next state, with the version raised ----

    /** No turn (a finished run, or a turn ended without a next one). */
    TurnState none() {
        return new TurnState(null, null, null, null, null, 0, version + 1);
    }

    /** A turn asked for at {@code at}: keeps an earlier due time; while leased, remembered for after the lease. */
    TurnState request(String runQueue, long at) {
        if (isLeased()) {
            long r = requested == null ? at : Math.min(requested, at);
            return new TurnState(queue, null, token, expires, r, deliveries, version + 1);
        }
        if (hasTurn()) {
            return new TurnState(queue, Math.min(due, at), null, null, null, deliveries, version + 1);
        }
        return new TurnState(runQueue, at, null, null, null, 0, version + 1);
    }

    /** Whether {@link #request} would change nothing (the turn is already due by then). */
    boolean alreadyRequested(long at) {
        if (isLeased()) {
            return requested != null && requested <= at;
        }
        return hasTurn() && due <= at;
    }

    TurnState lease(String newToken, long expiresAt) {
        return new TurnState(queue, null, newToken, expiresAt, requested, deliveries + 1, version + 1);
    }

    TurnState extend(long expiresAt) {
        return new TurnState(queue, null, token, expiresAt, requested, deliveries, version + 1);
    }

    /** Ends the lease: the next turn is due at the earlier of {@code wakeAt} and a turn requested meanwhile. */
    TurnState complete(Long wakeAt) {
        Long next;
        if (wakeAt == null) {
            next = requested;
        } else if (requested == null) {
            next = wakeAt;
        } else {
            next = Math.min(wakeAt, requested);
        }
        if (next == null) {
            return none();
        }
        return new TurnState(queue, next, null, null, null, 0, version + 1);
    }

    /** Hands the turn back: due at once, its deliveries kept. */
    TurnState release(long now) {
        long next = requested == null ? now : Math.min(now, requested);
        return new TurnState(queue, next, null, null, null, deliveries, version + 1);
    }

    /** Writes this state onto an update of the run's item. */
    void writeTo(Update u, String runId) {
        u.set(VERSION, n(version));
        u.set(DELIVERIES, n(deliveries));
        if (!hasTurn()) {
            u.remove(QUEUE)
                    .remove(KEY)
                    .remove(AVAILABLE)
                    .remove(TOKEN)
                    .remove(EXPIRES)
                    .remove(REQUESTED);
            return;
        }
        long avail = available();
        u.set(QUEUE, s(queue)).set(KEY, s(Attrs.timeKey(avail, runId))).set(AVAILABLE, n(avail));
        if (isLeased()) {
            u.set(TOKEN, s(token)).set(EXPIRES, n(expires));
        } else {
            u.remove(TOKEN).remove(EXPIRES);
        }
        if (requested != null) {
            u.set(REQUESTED, n(requested));
        } else {
            u.remove(REQUESTED);
        }
    }

    /** The condition that nothing changed the turn since it was read. */
    void expectOn(Update u) {
        u.when("#" + VERSION + " = ?", n(version));
    }
}
