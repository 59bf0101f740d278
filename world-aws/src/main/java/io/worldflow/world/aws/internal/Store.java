package io.worldflow.world.aws.internal;

import io.worldflow.RunNotFoundException;
import io.worldflow.WorldException;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.event.WorkflowFailed;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.format.ChainKey;
import io.worldflow.spi.DueNotifier;
import io.worldflow.spi.EventCodec;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import static io.worldflow.world.aws.internal.Attrs.s;

/** What the facets share: the clients, table names, codec, clock, push notifier and wake-up queues. */
final class Store {

    /** Attempts of an optimistic read-modify-write before giving up as a transient failure. */
    static final int MAX_RACES = 200;

    final DynamoDbClient dynamo;
    final Tables tables;
    final EventCodec codec;
    final InstantSource clock;
    final DueNotifier notifier;
    final WakeQueues wakes;
    /** The key of the logs' hash chains ({@link ChainKey#KEY}), or null when they are not keyed. */
    final ChainKey chainKey;
    /** How the index keys many runs share are spread ({@link Shards}). */
    final Shards shards;
    /** The runs whose turns this process holds, as it last left them. */
    final HeldTurns held = new HeldTurns();

    Store(
            DynamoDbClient dynamo,
            Tables tables,
            EventCodec codec,
            InstantSource clock,
            DueNotifier notifier,
            WakeQueues wakes,
            ChainKey chainKey,
            Shards shards) {
        this.chainKey = chainKey;
        this.shards = shards;
        this.dynamo = dynamo;
        this.tables = tables;
        this.codec = codec;
        this.clock = clock;
        this.notifier = notifier;
        this.wakes = wakes;
    }

    long nowMicros() {
        return Attrs.micros(clock.instant());
    }

    /** The run's item, read consistently, or null. */
    Map<String, AttributeValue> run(String runId) {
        return runsItem(runId, "reading run " + runId);
    }

    /** The item of the runs table with key {@code id} (a run's, or another kept there), read consistently, or null. */
    Map<String, AttributeValue> runsItem(String id, String what) {
        Map<String, AttributeValue> item = AwsFailures.call(
                what,
                () -> dynamo.getItem(b ->
                                b.tableName(tables.runs()).key(RunItem.key(id)).consistentRead(true))
                        .item());
        return item == null || item.isEmpty() ? null : item;
    }

    /** The runs' items, read consistently, in the order of {@code runIds}; runs that do not exist are left out. */
    List<Map<String, AttributeValue>> runs(List<String> runIds) {
        return items(tables.runs(), RunItem.ID, runIds, "reading runs");
    }

    /**
     * The items of {@code table} whose key attribute {@code keyName} is one of {@code ids}, read consistently, in the
     * order of {@code ids}; ids without an item are left out.
     */
    List<Map<String, AttributeValue>> items(String table, String keyName, List<String> ids, String what) {
        Map<String, Map<String, AttributeValue>> found = new HashMap<>();
        for (int from = 0; from < ids.size(); from += 100) {
            List<Map<String, AttributeValue>> keys = ids.subList(from, Math.min(ids.size(), from + 100)).stream()
                    .distinct()
                    .map(id -> Map.of(keyName, s(id)))
                    .toList();
            Map<String, KeysAndAttributes> request = Map.of(
                    table,
                    KeysAndAttributes.builder().keys(keys).consistentRead(true).build());
            // a response stops at 16 MB: what it leaves comes back as unprocessed keys, asked for again
            for (int round = 0; !request.isEmpty(); round++) {
                if (round > 0) {
                    backoff(round);
                }
                Map<String, KeysAndAttributes> asked = request;
                var response = AwsFailures.call(what, () -> dynamo.batchGetItem(b -> b.requestItems(asked)));
                for (Map<String, AttributeValue> item : response.responses().getOrDefault(table, List.of())) {
                    found.put(item.get(keyName).s(), item);
                }
                request = response.hasUnprocessedKeys() ? response.unprocessedKeys() : Map.of();
            }
        }
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        for (String id : ids) {
            Map<String, AttributeValue> item = found.get(id);
            if (item != null) {
                out.add(item);
            }
        }
        return out;
    }

    /** The run's events with seq ≥ fromSeq, or null when the run has no events there and may not exist. */
    List<Event> events(String runId, long fromSeq, boolean firstAppendOnly) {
        List<Event> out = new ArrayList<>();
        EventPages.Reader reader = new EventPages.Reader(codec);
        eventItems(runId, EventPages.from(fromSeq), null, item -> {
            for (Event e : reader.add(item)) {
                if (e.seq() >= fromSeq) {
                    out.add(e);
                }
            }
            return !firstAppendOnly || out.isEmpty();
        });
        return out;
    }

    /** The run's events with seq below {@code length}: its log up to the length its item states, read consistently. */
    List<Event> events(String runId, long length) {
        List<Event> out = new ArrayList<>();
        if (length <= 0) {
            return out;
        }
        EventPages.Reader reader = new EventPages.Reader(codec);
        eventItems(runId, EventPages.from(0), EventPages.through(length - 1), item -> {
            out.addAll(reader.add(item));
            return true;
        });
        return out;
    }

    /**
     * Passes the run's items of the events table with keys from {@code fromKey} up to {@code toKey} (null: to the end)
     * to {@code each}, in key order, read consistently, while it returns true.
     */
    void eventItems(String runId, String fromKey, String toKey, Predicate<Map<String, AttributeValue>> each) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":r", s(runId));
        values.put(":k", s(fromKey));
        if (toKey != null) {
            values.put(":to", s(toKey));
        }
        String condition = toKey == null ? "#r = :r AND #k >= :k" : "#r = :r AND #k BETWEEN :k AND :to";
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> exclusiveStart = start;
            QueryResponse page = AwsFailures.call(
                    "reading the log of run " + runId,
                    () -> dynamo.query(QueryRequest.builder()
                            .tableName(tables.events())
                            .consistentRead(true)
                            .keyConditionExpression(condition)
                            .expressionAttributeNames(Map.of("#r", EventPages.RUN, "#k", EventPages.KEY))
                            .expressionAttributeValues(values)
                            .exclusiveStartKey(exclusiveStart)
                            .build()));
            for (Map<String, AttributeValue> item : page.items()) {
                if (!each.test(item)) {
                    return;
                }
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
    }

    /** The input, output or error kept in the event at {@code seq} (for values too large for the run's item). */
    Object payloadAt(String runId, long seq) {
        for (Event e : events(runId, seq, true)) {
            if (e.seq() == seq) {
                return payload(e);
            }
        }
        throw new RunNotFoundException(runId);
    }

    /** The run's input, output or error that {@code e} holds, where the run's item points at it. */
    static Object payload(Event e) {
        return switch (e) {
            case WorkflowStarted s -> s.input();
            case WorkflowCompleted c -> c.output();
            case WorkflowFailed f -> f.error();
            default ->
                throw new WorldException(
                        "AWS world: event " + e.seq() + " of run " + e.runId()
                                + " holds no run payload but the run's item points at it",
                        false,
                        null);
        };
    }

    /** A short pause with jitter between attempts of an optimistic write that lost a race. */
    static void backoff(int attempt) {
        long cap = Math.min(50, 1L << Math.min(attempt, 6));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(cap + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorldException("AWS world: interrupted", true, e);
        }
    }

    /**
     * Runs {@code task} on each of {@code items} side by side, on virtual threads: writes to different items wait for
     * no one. Returns once every task has ended, rethrowing the first failure; the other tasks' writes stay written.
     *
     * @param what what the tasks do together, for messages ("appending")
     */
    static <T> void eachAtOnce(Collection<T> items, Consumer<T> task, String what) {
        readAtOnce(
                List.copyOf(items),
                item -> {
                    task.accept(item);
                    return true;
                },
                what);
    }

    /**
     * {@code read} of each of {@code items} side by side, on virtual threads, the answers in the items' order: the
     * queries of an index's shards wait for no one ({@link Shards}). Rethrows the first failure.
     */
    static <T, R> List<R> readAtOnce(List<T> items, Function<T, R> read, String what) {
        if (items.size() <= 1) {
            return items.stream().map(read).toList();
        }
        List<R> out = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<R>> futures = new ArrayList<>();
            for (T item : items) {
                futures.add(pool.submit(() -> read.apply(item)));
            }
            for (Future<R> f : futures) {
                out.add(f.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorldException("AWS world: interrupted while " + what, true, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new WorldException("AWS world: " + what + " failed", false, e.getCause());
        }
        return out;
    }

    static WorldException tooManyRaces(String what) {
        return new WorldException(
                "AWS world: " + what + " kept losing races with concurrent writers after " + MAX_RACES + " attempts",
                true,
                null);
    }

    /**
     * Tells local listeners and (through SQS) other processes that the run's turn is due at {@code at}. A turn in a
     * queue other than its run's own ({@code runQueue}; null when not known) waits there to be admitted: no worker
     * leases from that queue, so no wake-up is sent to it (nor an SQS queue made for it).
     */
    void turnDue(String queue, String runQueue, String runId, long atMicros) {
        Instant at = Attrs.instant(atMicros);
        notifier.due(at);
        if (runQueue == null || runQueue.equals(queue)) {
            wakes.send(queue, runId, at);
        }
    }
}
