package io.worldflow.world.aws.internal;

import io.worldflow.spi.Lease;
import io.worldflow.spi.TaskQueue;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Consumer;

import static io.worldflow.world.aws.internal.Attrs.micros;
import static io.worldflow.world.aws.internal.Attrs.n;
import static io.worldflow.world.aws.internal.Attrs.num;
import static io.worldflow.world.aws.internal.Attrs.s;
import static io.worldflow.world.aws.internal.Attrs.str;

/**
 * Turns, judged by the world's clock: a turn is leasable when the {@code byDue} index (queue, available
 * time) shows it at or before now. A lease is a conditional update of the run's item (turn version
 * unchanged, available by now), so of two workers that saw the same turn exactly one gets it; the loser
 * moves on to the next candidate. Priority is honoured among the {@value #WINDOW} earliest due turns of each
 * shard of each queue read per call ({@link Shards}).
 *
 * <p>The turns that wait in a queue to be admitted are listed from the {@code byWaiting} index, whose sort key is the
 * leasing order itself ({@link TurnState}), so a page of it is the next turns to admit however many wait; and moved,
 * run by run, by the same conditional update as any other change of a turn.
 */
final class DynamoTaskQueue implements TaskQueue {

    static final int WINDOW = 100;

    private final Store store;
    private final KeyOrder keyOrder;
    private final WakeConsumer consumer;
    private final boolean consumeWakes;

    DynamoTaskQueue(Store store, WakeConsumer consumer, boolean consumeWakes) {
        this.store = store;
        this.keyOrder = new KeyOrder(store);
        this.consumer = consumer;
        this.consumeWakes = consumeWakes;
    }

    private record Candidate(String runId, int priority, long available, Map<String, AttributeValue> item) {}

    /** Claims pending turns due by now plus {@code lookahead}, and leased ones whose lease has lapsed by now. */
    @Override
    public List<Lease> lease(String workerId, Set<String> queues, int max, Duration leaseFor, Duration lookahead) {
        TaskQueue.checkLease(leaseFor, Objects.requireNonNull(lookahead, "lookahead"));
        List<Lease> leased = new ArrayList<>();
        if (max <= 0 || queues.isEmpty()) {
            return leased;
        }
        Instant now = store.clock.instant();
        long nowMicros = micros(now);
        long dueByMicros = micros(now.plus(lookahead));
        Instant expiresAt = now.plus(leaseFor);
        for (int round = 0; round < 10 && leased.size() < max; round++) {
            List<Candidate> candidates = new ArrayList<>();
            boolean full = false;
            for (List<Map<String, AttributeValue>> items : Store.readAtOnce(
                    queueKeys(queues), key -> due(key, dueByMicros, WINDOW), "reading the due turns of " + queues)) {
                full |= items.size() == WINDOW;
                for (Map<String, AttributeValue> item : items) {
                    candidates.add(new Candidate(
                            str(item, RunItem.ID),
                            (int) num(item, RunItem.PRIORITY, 0),
                            num(item, TurnState.AVAILABLE, 0),
                            item));
                }
            }
            candidates.sort(Comparator.comparingInt(Candidate::priority)
                    .reversed()
                    .thenComparingLong(Candidate::available)
                    .thenComparing(Candidate::runId));
            boolean lost = false;
            for (Candidate c : candidates) {
                if (leased.size() >= max) {
                    break;
                }
                Optional<Lease> lease = claim(c, nowMicros, dueByMicros, expiresAt);
                if (lease.isPresent()) {
                    leased.add(lease.get());
                } else {
                    lost = true;
                }
            }
            if (!(lost && full)) {
                break;
            }
        }
        return leased;
    }

    private Optional<Lease> claim(Candidate c, long nowMicros, long dueByMicros, Instant expiresAt) {
        TurnState turn = TurnState.of(c.item());
        // a pending turn may be claimed ahead of its time; a leased one only once its lease lapsed
        long limit = turn.isLeased() ? nowMicros : dueByMicros;
        if (!turn.hasTurn() || turn.available() > limit) {
            return Optional.empty();
        }
        TurnState next = turn.lease(UUID.randomUUID().toString(), micros(expiresAt));
        Update u = new Update(store.tables.runs(), RunItem.key(c.runId()));
        next.writeTo(u, c.runId(), store.shards);
        turn.expectOn(u);
        u.when("#" + TurnState.AVAILABLE + " <= ?", n(limit));
        Map<String, AttributeValue> item;
        try {
            item = AwsFailures.call(
                            "leasing run " + c.runId(),
                            () -> store.dynamo.updateItem(u.request().toBuilder()
                                    .returnValues(ReturnValue.ALL_NEW)
                                    .build()))
                    .attributes();
        } catch (ConditionalCheckFailedException lostRace) {
            return Optional.empty();
        }
        store.held.leased(item, true); // the worker loads the run from it, and appends from what it keeps
        return Optional.of(new Lease(c.runId(), next.token(), next.queue(), expiresAt, next.deliveries()));
    }

    /** The keys of the queues in {@code byDue}: every shard of each ({@link Shards}). */
    private List<String> queueKeys(Set<String> queues) {
        List<String> keys = new ArrayList<>();
        for (String queue : queues) {
            keys.addAll(store.shards.keys(queue));
        }
        return keys;
    }

    /**
     * Up to {@code limit} turns of the queue's shard {@code queueKey} available at or before {@code atMicros}, earliest
     * first.
     */
    private List<Map<String, AttributeValue>> due(String queueKey, long atMicros, int limit) {
        String queue = Shards.plain(queueKey);
        return AwsFailures.call(
                "reading the due turns of queue " + queue,
                () -> store.dynamo
                        .query(QueryRequest.builder()
                                .tableName(store.tables.runs())
                                .indexName(Tables.BY_DUE)
                                .keyConditionExpression("#q = :q AND #k <= :k")
                                .expressionAttributeNames(Map.of("#q", TurnState.QUEUE, "#k", TurnState.KEY))
                                .expressionAttributeValues(
                                        Map.of(":q", s(queueKey), ":k", s(Attrs.pad(atMicros) + ";")))
                                .limit(limit)
                                .build())
                        .items());
    }

    /**
     * A heartbeat. The turn this process holds ({@link HeldTurns}) under that lease is extended without reading the
     * run's item first: the write's condition on the turn's version refuses it when the turn moved, and then it is
     * read as every other change of a turn reads it.
     */
    @Override
    public Optional<Lease> extend(Lease lease, Duration leaseFor) {
        Objects.requireNonNull(lease, "lease");
        TaskQueue.checkLease(leaseFor, null);
        Instant expiresAt = store.clock.instant().plus(leaseFor);
        KnownRun held = store.held.get(lease.runId());
        if (held != null && lease.token().equals(held.turn().token())) {
            TurnState next = held.turn().extend(micros(expiresAt));
            Update u = new Update(store.tables.runs(), RunItem.key(lease.runId()));
            next.writeTo(u, lease.runId(), store.shards);
            held.turn().expectOn(u);
            try {
                AwsFailures.call(
                        "extending the lease of run " + lease.runId(), () -> store.dynamo.updateItem(u.request()));
                store.held.turnChanged(lease.runId(), held.turn(), next);
                return Optional.of(lease.withExpiresAt(expiresAt));
            } catch (ConditionalCheckFailedException moved) {
                store.held.forget(lease.runId());
            }
        }
        TurnState done = mutate(
                lease.runId(),
                "extending the lease of run " + lease.runId(),
                (item, turn) -> lease.token().equals(turn.token()) ? turn.extend(micros(expiresAt)) : null);
        return done == null ? Optional.empty() : Optional.of(lease.withExpiresAt(expiresAt));
    }

    @Override
    public void complete(Lease lease, Instant wakeAt) {
        TurnState done = mutate(lease.runId(), "completing the turn of run " + lease.runId(), (item, turn) -> {
            if (!lease.token().equals(turn.token())) {
                return null;
            }
            return RunItem.status(item).isTerminal()
                    ? turn.none()
                    : turn.complete(wakeAt == null ? null : micros(wakeAt));
        });
        if (done != null && done.hasTurn()) {
            store.turnDue(done.queue(), done.runQueue(), lease.runId(), done.available());
        }
    }

    @Override
    public void release(Lease lease) {
        long now = store.nowMicros();
        TurnState done = mutate(
                lease.runId(),
                "releasing the turn of run " + lease.runId(),
                (item, turn) -> lease.token().equals(turn.token()) ? turn.release(now) : null);
        if (done != null) {
            store.turnDue(done.queue(), done.runQueue(), lease.runId(), done.available());
        }
    }

    @Override
    public void enqueue(String runId, Instant at) {
        long atMicros = micros(at);
        TurnState done = mutate(runId, "enqueueing a turn of run " + runId, (item, turn) -> {
            if (RunItem.status(item).isTerminal() || turn.alreadyRequested(atMicros)) {
                return null;
            }
            return turn.request(str(item, RunItem.QUEUE), atMicros);
        });
        if (done != null && !done.isLeased()) {
            store.turnDue(done.queue(), done.runQueue(), runId, done.available());
        }
    }

    @Override
    public List<WaitingTurn> waiting(String queue, int limit) {
        Objects.requireNonNull(queue, "queue");
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive, was " + limit);
        }
        IndexQuery query = new IndexQuery(
                store.tables.runs(),
                RunItem.ID,
                Tables.BY_WAITING,
                List.of(TurnState.QUEUE, TurnState.WAIT_KEY),
                "#q = :q",
                Map.of("#q", TurnState.QUEUE),
                Map.of(":q", s(queue)));
        String what = "reading the waiting turns of queue " + queue;
        List<Map<String, AttributeValue>> items = query.readShards(store, ":q", TurnState.WAIT_KEY, limit, what);
        if (store.shards.count() > 1) {
            items = settled(items, query.readShards(store, ":q", TurnState.WAIT_KEY, limit, what));
        }
        return keyOrder.listed(queue, items, what).stream()
                .map(item -> new WaitingTurn(
                        str(item, RunItem.ID),
                        str(item, RunItem.ORDER_KEY),
                        (int) num(item, RunItem.PRIORITY, 0),
                        Attrs.instant(item, TurnState.AVAILABLE)))
                .toList();
    }

    /**
     * The turns of a second read of every shard, up to the first one that the first read did not see. The shards are
     * read side by side, not as one snapshot: a shard read early may miss a run that was created just before another
     * run that a shard read later shows, and the queue would admit the later run first, whatever their keys. A run
     * that the first read saw existed before the second read began, and so did every run submitted before it, which
     * the second read therefore sees, in front of it; a run only the second read saw, and all behind it, wait for the
     * next round. (Runs of one ordering key are also kept in order by {@link KeyOrder}, against an index that lags.)
     */
    private static List<Map<String, AttributeValue>> settled(
            List<Map<String, AttributeValue>> first, List<Map<String, AttributeValue>> second) {
        Set<String> seen = new HashSet<>();
        for (Map<String, AttributeValue> item : first) {
            seen.add(str(item, RunItem.ID));
        }
        int upTo = 0;
        while (upTo < second.size() && seen.contains(str(second.get(upTo), RunItem.ID))) {
            upTo++;
        }
        return second.subList(0, upTo);
    }

    /**
     * Each run by itself, side by side: read, then written if its turn did not change meanwhile. A failure leaves the
     * runs moved before it moved (and announced); calling again moves the others.
     */
    @Override
    public Set<String> move(Collection<String> runIds, String from, String to, Instant at) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        long atMicros = micros(Objects.requireNonNull(at, "at"));
        Set<String> moved = ConcurrentHashMap.newKeySet();
        Store.eachAtOnce(
                new LinkedHashSet<>(runIds),
                runId -> {
                    TurnState done = mutate(
                            runId,
                            "moving the turn of run " + runId + " to queue " + to,
                            (item, turn) -> movable(turn, from) ? turn.move(to, atMicros) : null);
                    if (done != null) {
                        moved.add(runId);
                        store.turnDue(to, done.runQueue(), runId, atMicros);
                    }
                },
                "moving turns from queue " + from + " to " + to);
        return Set.copyOf(moved);
    }

    /**
     * Moves as {@link #move} does, leasing the moved turns of the runs in {@code toLease} in the same conditional write
     * when they are due by now ({@link io.worldflow.spi.WorkerAccess#moveLeasing}): only the turns moved without a lease
     * are announced, and the leased runs are kept as a lease keeps them, for the worker's load.
     */
    List<Lease> moveLeasing(
            Collection<String> runIds, String from, String to, Instant at, Set<String> toLease, Duration leaseFor) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(toLease, "toLease");
        TaskQueue.checkLease(leaseFor, null);
        Instant now = store.clock.instant();
        long atMicros = micros(Objects.requireNonNull(at, "at"));
        Instant expiresAt = now.plus(leaseFor);
        boolean due = !at.isAfter(now);
        List<Lease> leased = Collections.synchronizedList(new ArrayList<>());
        Store.eachAtOnce(
                new LinkedHashSet<>(runIds),
                runId -> {
                    boolean lease = due && toLease.contains(runId);
                    String what = "moving the turn of run " + runId + " to queue " + to;
                    if (!lease) {
                        TurnState done = mutate(
                                runId, what, (item, turn) -> movable(turn, from) ? turn.move(to, atMicros) : null);
                        if (done != null) {
                            store.turnDue(to, done.runQueue(), runId, atMicros);
                        }
                        return;
                    }
                    String token = UUID.randomUUID().toString();
                    Map<String, AttributeValue> item = mutateReturning(
                            runId,
                            what,
                            (i, turn) -> movable(turn, from)
                                    ? turn.move(to, atMicros).lease(token, micros(expiresAt))
                                    : null);
                    if (item != null) {
                        store.held.leased(item, true); // the worker loads the run from it, as after a lease
                        TurnState next = TurnState.of(item);
                        leased.add(new Lease(runId, token, next.queue(), expiresAt, next.deliveries()));
                    }
                },
                "moving turns from queue " + from + " to " + to);
        return List.copyOf(leased);
    }

    private static boolean movable(TurnState turn, String from) {
        return turn.hasTurn() && !turn.isLeased() && from.equals(turn.queue());
    }

    /**
     * Reads the run, asks {@code change} for its next turn (null: leave it), and writes it if the turn did
     * not change meanwhile, retrying otherwise. Returns the written turn, or null when nothing was written.
     */
    TurnState mutate(String runId, String what, BiFunction<Map<String, AttributeValue>, TurnState, TurnState> change) {
        Written w = write(runId, what, change, false);
        return w == null ? null : w.turn();
    }

    /** As {@link #mutate}, returning the run's item as written, or null when nothing was written. */
    private Map<String, AttributeValue> mutateReturning(
            String runId, String what, BiFunction<Map<String, AttributeValue>, TurnState, TurnState> change) {
        Written w = write(runId, what, change, true);
        return w == null ? null : w.item();
    }

    /** A turn written, and the run's item as written when it was asked for (else null). */
    private record Written(TurnState turn, Map<String, AttributeValue> item) {}

    /** The work of {@link #mutate}; null when nothing was written. */
    private Written write(
            String runId,
            String what,
            BiFunction<Map<String, AttributeValue>, TurnState, TurnState> change,
            boolean returnItem) {
        store.held.forget(runId); // what this process keeps of the run is not kept up to date here
        for (int attempt = 1; ; attempt++) {
            Map<String, AttributeValue> item = store.run(runId);
            if (item == null) {
                return null;
            }
            TurnState turn = TurnState.of(item);
            TurnState next = change.apply(item, turn);
            if (next == null) {
                return null;
            }
            Update u = new Update(store.tables.runs(), RunItem.key(runId));
            next.writeTo(u, runId, store.shards);
            turn.expectOn(u);
            try {
                if (!returnItem) {
                    AwsFailures.call(what, () -> store.dynamo.updateItem(u.request()));
                    return new Written(next, null);
                }
                return new Written(
                        next,
                        AwsFailures.call(
                                        what,
                                        () -> store.dynamo.updateItem(u.request().toBuilder()
                                                .returnValues(ReturnValue.ALL_NEW)
                                                .build()))
                                .attributes());
            } catch (ConditionalCheckFailedException lostRace) {
                if (attempt >= Store.MAX_RACES) {
                    throw Store.tooManyRaces(what);
                }
                Store.backoff(attempt);
            }
        }
    }

    @Override
    public Optional<Instant> nextDue(Set<String> queues) {
        Optional<Long> earliest = Optional.empty();
        for (List<Map<String, AttributeValue>> first :
                Store.readAtOnce(queueKeys(queues), this::first, "reading the next due turn of " + queues)) {
            for (Map<String, AttributeValue> item : first) {
                long at = num(item, TurnState.AVAILABLE, Long.MAX_VALUE);
                earliest = Optional.of(earliest.map(e -> Math.min(e, at)).orElse(at));
            }
        }
        return earliest.map(Attrs::instant);
    }

    /** The earliest turn of a queue's shard {@code queueKey}, if it has one. */
    private List<Map<String, AttributeValue>> first(String queueKey) {
        return AwsFailures.call(
                "reading the next due turn of queue " + Shards.plain(queueKey),
                () -> store.dynamo
                        .query(QueryRequest.builder()
                                .tableName(store.tables.runs())
                                .indexName(Tables.BY_DUE)
                                .keyConditionExpression("#q = :q")
                                .expressionAttributeNames(Map.of("#q", TurnState.QUEUE))
                                .expressionAttributeValues(Map.of(":q", s(queueKey)))
                                .limit(1)
                                .build())
                        .items());
    }

    /**
     * Whether the run has a turn available at or before {@code at} that is not leased (or whose lease has
     * lapsed): work still to do for a wake-up message due then.
     */
    boolean hasTurnDueBy(String runId, Instant at) {
        Map<String, AttributeValue> item = store.run(runId);
        if (item == null || RunItem.status(item).isTerminal()) {
            return false;
        }
        TurnState turn = TurnState.of(item);
        return turn.hasTurn() && (turn.isLeased() || turn.available() <= micros(at));
    }

    @Override
    public Subscription subscribe(Consumer<Instant> dueAt) {
        Subscription s = store.notifier.subscribe(dueAt);
        if (consumeWakes) {
            consumer.start();
        }
        return s;
    }
}
