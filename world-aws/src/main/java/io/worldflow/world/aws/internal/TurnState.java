package io.worldflow.world.aws.internal;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
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
 * the expiry of a leased one (when it is delivered again). The {@code byWaiting} index is keyed by the queue and
 * {@value #WAIT_KEY}, present only while the turn is pending: the leasing order (the run's priority, highest first,
 * then the due time, then the run id), in which {@link DynamoTaskQueue#waiting} lists a queue's turns.
 *
 * @param queue      the queue the turn is in while the run has one, else null (the indexes are sparse): the run's
 *                   queue, or the queue it waits in to be admitted until its turn is moved to the run's queue
 * @param runQueue   the run's own queue: a turn in another one waits there to be admitted, and only such a turn is in
 *                   the {@code byWaiting} index (so that the index costs nothing to the turns of other runs)
 * @param priority   the run's priority, which orders its turn
 * @param due        when a pending turn is due; null while leased or without a turn
 * @param token      the lease's token, or null
 * @param expires    when the lease lapses
 * @param requested  a turn asked for while leased: due then, after the lease ends
 * @param deliveries times the current turn was leased
 * @param version    raised by every change
 */
record TurnState(
        String queue,
        String runQueue,
        int priority,
        Long due,
        String token,
        Long expires,
        Long requested,
        int deliveries,
        long version) {

    static final String QUEUE = "tq";
    static final String KEY = "tk";
    static final String AVAILABLE = "tAvail";
    static final String TOKEN = "tLease";
    static final String EXPIRES = "tExp";
    static final String REQUESTED = "tReq";
    static final String DELIVERIES = "tDel";
    static final String VERSION = "tVer";
    /** The sort key of the {@code byWaiting} index, present while the turn is pending. */
    static final String WAIT_KEY = "tw";

    /** The first turn of a new run. */
    static TurnState first(String queue, String runQueue, int priority, long due) {
        return new TurnState(queue, runQueue, priority, due, null, null, null, 0, 0);
    }

    static TurnState of(Map<String, AttributeValue> item) {
        Long expires = num(item, EXPIRES);
        String token = str(item, TOKEN);
        String queue = Shards.plain(str(item, QUEUE));
        return new TurnState(
                queue,
                str(item, RunItem.QUEUE),
                (int) num(item, RunItem.PRIORITY, 0),
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

    /** Whether the turn waits in a queue other than its run's, to be admitted there. */
    boolean waits() {
        return queue != null && runQueue != null && !queue.equals(runQueue);
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
        return new TurnState(null, runQueue, priority, null, null, null, null, 0, version + 1);
    }

    /**
     * A turn asked for at {@code at}: keeps an earlier due time; while leased, remembered for after the lease. A turn
     * the run has stays in its queue (a run waiting to be admitted keeps waiting); a new one goes to {@code runQueue}.
     */
    TurnState request(String runQueue, long at) {
        if (isLeased()) {
            long r = requested == null ? at : Math.min(requested, at);
            return new TurnState(queue, runQueue, priority, null, token, expires, r, deliveries, version + 1);
        }
        if (hasTurn()) {
            return new TurnState(
                    queue, runQueue, priority, Math.min(due, at), null, null, null, deliveries, version + 1);
        }
        return new TurnState(runQueue, runQueue, priority, at, null, null, null, 0, version + 1);
    }

    /** Whether {@link #request} would change nothing (the turn is already due by then). */
    boolean alreadyRequested(long at) {
        if (isLeased()) {
            return requested != null && requested <= at;
        }
        return hasTurn() && due <= at;
    }

    TurnState lease(String newToken, long expiresAt) {
        return new TurnState(
                queue, runQueue, priority, null, newToken, expiresAt, requested, deliveries + 1, version + 1);
    }

    TurnState extend(long expiresAt) {
        return new TurnState(queue, runQueue, priority, null, token, expiresAt, requested, deliveries, version + 1);
    }

    /** A pending turn moved to queue {@code to}, due at {@code at}. */
    TurnState move(String to, long at) {
        return new TurnState(to, runQueue, priority, at, null, null, null, deliveries, version + 1);
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
        return new TurnState(queue, runQueue, priority, next, null, null, null, 0, version + 1);
    }

    /** Hands the turn back: due at once, its deliveries kept. */
    TurnState release(long now) {
        long next = requested == null ? now : Math.min(now, requested);
        return new TurnState(queue, runQueue, priority, next, null, null, null, deliveries, version + 1);
    }

    /** Writes this state onto an update of the run's item. */
    void writeTo(Update u, String runId, Shards shards) {
        u.set(VERSION, n(version));
        u.set(DELIVERIES, n(deliveries));
        if (!hasTurn()) {
            u.remove(QUEUE)
                    .remove(KEY)
                    .remove(AVAILABLE)
                    .remove(WAIT_KEY)
                    .remove(TOKEN)
                    .remove(EXPIRES)
                    .remove(REQUESTED);
            return;
        }
        long avail = available();
        u.set(QUEUE, s(shards.key(queue, runId)))
                .set(KEY, s(Attrs.timeKey(avail, runId)))
                .set(AVAILABLE, n(avail));
        if (isLeased()) {
            u.set(TOKEN, s(token)).set(EXPIRES, n(expires)).remove(WAIT_KEY);
        } else if (waits()) {
            u.remove(TOKEN).remove(EXPIRES).set(WAIT_KEY, s(waitKey(runId)));
        } else {
            u.remove(TOKEN).remove(EXPIRES).remove(WAIT_KEY);
        }
        if (requested != null) {
            u.set(REQUESTED, n(requested));
        } else {
            u.remove(REQUESTED);
        }
    }

    /**
     * Puts this turn, pending or leased, on the item of a new run in place of the turn it has: the attributes {@link
     * #writeTo} would leave, so that {@link #of} reads this state back.
     */
    void putOn(Map<String, AttributeValue> item, String runId, Shards shards) {
        for (String attribute : List.of(QUEUE, KEY, AVAILABLE, WAIT_KEY, TOKEN, EXPIRES, REQUESTED)) {
            item.remove(attribute);
        }
        item.put(DELIVERIES, n(deliveries));
        item.put(VERSION, n(version));
        if (!hasTurn()) {
            return;
        }
        long avail = available();
        item.put(QUEUE, s(shards.key(queue, runId)));
        item.put(KEY, s(Attrs.timeKey(avail, runId)));
        item.put(AVAILABLE, n(avail));
        if (isLeased()) {
            item.put(TOKEN, s(token));
            item.put(EXPIRES, n(expires));
        } else if (waits()) {
            item.put(WAIT_KEY, s(waitKey(runId)));
        }
        if (requested != null) {
            item.put(REQUESTED, n(requested));
        }
    }

    /**
     * The pending turn's place in {@code byWaiting}: the priority turned around so that the highest sorts first (every
     * int maps to ten digits), then the due time and the run id as in {@code byDue}.
     */
    private String waitKey(String runId) {
        return String.format("%010d", (long) Integer.MAX_VALUE - priority) + ":" + Attrs.timeKey(due, runId);
    }

    /** The condition that nothing changed the turn since it was read. */
    void expectOn(Update u) {
        u.when("#" + VERSION + " = ?", n(version));
    }
}
