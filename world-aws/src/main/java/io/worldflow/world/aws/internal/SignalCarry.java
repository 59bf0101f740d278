package io.worldflow.world.aws.internal;

import io.worldflow.spi.PendingSignal;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.worldflow.world.aws.internal.Attrs.micros;
import static io.worldflow.world.aws.internal.Attrs.n;
import static io.worldflow.world.aws.internal.Attrs.num;
import static io.worldflow.world.aws.internal.Attrs.s;
import static io.worldflow.world.aws.internal.Attrs.str;

/**
 * Signals carried from a run that ended to its successor ({@link io.worldflow.spi.Append#carrySignalsTo}). The carry
 * is a record on the successor's item, written in the ended run's last transaction: {@value RunItem#CARRY_FROM} (the
 * ended run), {@value RunItem#CARRY_UP_TO} (its signal counter as that transaction read it) and
 * {@value RunItem#CARRY_BASE}, the start of as many ids taken from the successor's counter, so that the ended run's
 * signal i becomes the successor's signal {@code base + i}, in arrival order and before anything the successor is sent
 * later. A signal to the ended run numbered after that read and stored before the run ended is carried too, numbered
 * from {@value RunItem#CARRY_EXTRA}, a block taken once by the first copier; one stored after the run ended was
 * refused, as {@code send} refuses it, so once the run has ended its signals no longer change and copying them later
 * copies exactly what it held. (The transaction is not conditioned on the ended run's counter, or a run that is sent
 * signals without pause could never end; only while that counter is 0, so that a first signal numbered meanwhile
 * makes the ended run be read again and the record written.)
 *
 * <p>The copies are written after the commit by whoever comes first: the appender at once, or any later reader of the
 * successor's signals ({@code pending}, {@code send}), so a crash in between loses nothing. They are idempotent (fixed
 * ids) and each batch of them is conditioned on the record still being there, so that a slow copier cannot bring back
 * a signal the successor has consumed since; then the ended run's signals are marked consumed and the record removed.
 * A carried signal whose key the successor has already taken is a duplicate there and is left out.
 *
 * <p>Why not copy them in the transaction: one holds at most 100 items and 4 MB, and a run may end with more signals
 * pending than that; the record is one item however many it carries.
 */
final class SignalCarry {

    /** Items per copying transaction: the condition on the record, then the copies. */
    private static final int CHUNK_ITEMS = 100;
    /** Bytes per copying transaction, below DynamoDB's 4 MB with room for names and keys. */
    private static final long CHUNK_BYTES = 3_500_000;

    private final Store store;
    private final DynamoSignals signals;
    private final SignalCleanup cleanup;

    SignalCarry(Store store, DynamoSignals signals, SignalCleanup cleanup) {
        this.store = store;
        this.signals = signals;
        this.cleanup = cleanup;
    }

    /**
     * Completes the carry that {@code item}, the run's item as read, records.
     *
     * @return whether it recorded one (the caller reads the item again)
     */
    boolean rollForward(String runId, Map<String, AttributeValue> item) {
        String from = str(item, RunItem.CARRY_FROM);
        if (from == null) {
            return false;
        }
        long base = num(item, RunItem.CARRY_BASE, 0);
        for (int attempt = 1; ; attempt++) {
            Map<String, AttributeValue> ended = store.run(from);
            List<PendingSignal> carried = ended == null ? List.of() : signals.stored(from, ended);
            Ids ids = ids(runId, item, ended, carried);
            try {
                if (ids == null || !copy(runId, from, base, carried, ids)) {
                    return true; // another copier finished it
                }
            } catch (TransactionCanceledException e) {
                // the record went meanwhile, or the successor took a carried key itself: look again
                if (attempt >= Store.MAX_RACES) {
                    throw Store.tooManyRaces("carrying signals from run " + from + " to run " + runId);
                }
                Store.backoff(attempt);
                continue;
            }
            List<Long> consumed = carried.stream().map(PendingSignal::id).toList();
            if (!consumed.isEmpty()) {
                Update u = new Update(store.tables.runs(), RunItem.key(from))
                        .add(
                                RunItem.CONSUMED,
                                AttributeValue.fromNs(
                                        consumed.stream().map(String::valueOf).toList()));
                AwsFailures.call(
                        "marking the signals of run " + from + " carried", () -> store.dynamo.updateItem(u.request()));
                cleanup.consumed(from, consumed);
            }
            Update done = new Update(store.tables.runs(), RunItem.key(runId))
                    .remove(RunItem.CARRY_FROM)
                    .remove(RunItem.CARRY_BASE)
                    .remove(RunItem.CARRY_UP_TO)
                    .remove(RunItem.CARRY_EXTRA);
            expectRecord(done, from, base);
            try {
                AwsFailures.call(
                        "ending the carry of signals to run " + runId, () -> store.dynamo.updateItem(done.request()));
            } catch (ConditionalCheckFailedException finishedByAnother) {
                // removed by a copier that finished first
            }
            return true;
        }
    }

    /** How the ended run's signal ids map to the successor's. */
    private record Ids(long base, long upTo, long extra) {

        long of(long id) {
            return id <= upTo ? base + id : extra + id - upTo;
        }
    }

    /**
     * The mapping the record gives, with the block for signals numbered after the ended run was read taken when some
     * are carried and no copier took it yet; null when the record is gone.
     */
    private Ids ids(
            String runId,
            Map<String, AttributeValue> item,
            Map<String, AttributeValue> ended,
            List<PendingSignal> carried) {
        String from = str(item, RunItem.CARRY_FROM);
        long base = num(item, RunItem.CARRY_BASE, 0);
        long upTo = num(item, RunItem.CARRY_UP_TO, 0);
        Long extra = num(item, RunItem.CARRY_EXTRA);
        boolean late = carried.stream().anyMatch(p -> p.id() > upTo);
        if (extra != null || !late) {
            return new Ids(base, upTo, extra == null ? 0 : extra);
        }
        // the ended run's counter no longer moves: the block covers every id it gave after the read
        long count = num(ended, RunItem.SIGNAL_SEQ, 0) - upTo;
        Update u = new Update(store.tables.runs(), RunItem.key(runId));
        u.setExpression(u.name(RunItem.CARRY_EXTRA) + " = " + u.name(RunItem.SIGNAL_SEQ));
        u.setExpression(u.name(RunItem.SIGNAL_SEQ) + " = " + u.name(RunItem.SIGNAL_SEQ) + " + " + u.value(n(count)));
        expectRecord(u, from, base);
        u.when("attribute_not_exists(#" + RunItem.CARRY_EXTRA + ")");
        try {
            AwsFailures.call("numbering signals carried to run " + runId, () -> store.dynamo.updateItem(u.request()));
        } catch (ConditionalCheckFailedException takenOrGone) {
            // another copier took the block, or finished the carry
        }
        Map<String, AttributeValue> now = store.run(runId);
        if (now == null || !from.equals(str(now, RunItem.CARRY_FROM)) || num(now, RunItem.CARRY_BASE, -1) != base) {
            return null;
        }
        return new Ids(base, upTo, num(now, RunItem.CARRY_EXTRA, 0));
    }

    /**
     * Writes the copies, in batches each conditioned on the record.
     *
     * @return false when the record was gone before the copies were all written
     * @throws TransactionCanceledException when a batch failed for a reason to look at again
     */
    private boolean copy(String runId, String from, long base, List<PendingSignal> carried, Ids ids) {
        Map<Long, String> keys = carried.isEmpty() ? Map.of() : signals.keys(from);
        List<TransactWriteItem> batch = new ArrayList<>();
        long bytes = 0;
        for (PendingSignal p : carried) {
            long id = ids.of(p.id());
            String key = keys.get(p.id());
            if (key != null) {
                Long taken = signals.firstWithKey(runId, key);
                if (taken != null && taken != id) {
                    continue; // a duplicate in the successor, as a send of it would be
                }
            }
            List<TransactWriteItem> items = new ArrayList<>(2);
            items.add(write(Put.builder()
                    .tableName(store.tables.signals())
                    .item(DynamoSignals.item(runId, id, p.name(), p.payload(), micros(p.sentAt()), p.actor()))));
            if (key != null) {
                // the key is free, or this copy took it already (a copier before this one)
                items.add(write(Put.builder()
                        .tableName(store.tables.signalKeys())
                        .item(DynamoSignals.keyItem(runId, key, id))
                        .conditionExpression("attribute_not_exists(#r) OR #i = :i")
                        .expressionAttributeNames(Map.of("#r", DynamoSignals.RUN, "#i", DynamoSignals.ID))
                        .expressionAttributeValues(Map.of(":i", n(id)))));
            }
            long size = p.payload().json().getBytes(StandardCharsets.UTF_8).length + 1_024L;
            if (batch.size() + items.size() >= CHUNK_ITEMS || bytes + size > CHUNK_BYTES) {
                if (!write(runId, from, base, batch)) {
                    return false;
                }
                batch.clear();
                bytes = 0;
            }
            batch.addAll(items);
            bytes += size;
        }
        return batch.isEmpty() || write(runId, from, base, batch);
    }

    /** One batch of copies with the condition that the record is still there; false when it is not. */
    private boolean write(String runId, String from, long base, List<TransactWriteItem> copies) {
        Update record = new Update(store.tables.runs(), RunItem.key(runId));
        expectRecord(record, from, base);
        List<TransactWriteItem> items = new ArrayList<>(copies.size() + 1);
        items.add(record.transactItem()); // a condition check: it changes nothing
        items.addAll(copies);
        try {
            AwsFailures.run(
                    "carrying signals to run " + runId,
                    () -> store.dynamo.transactWriteItems(b -> b.transactItems(items)));
            return true;
        } catch (TransactionCanceledException e) {
            Map<String, AttributeValue> now = store.run(runId);
            if (now == null || !from.equals(str(now, RunItem.CARRY_FROM)) || num(now, RunItem.CARRY_BASE, -1) != base) {
                return false;
            }
            throw e;
        }
    }

    private static void expectRecord(Update u, String from, long base) {
        u.when("#" + RunItem.CARRY_FROM + " = ?", s(from)).when("#" + RunItem.CARRY_BASE + " = ?", n(base));
    }

    private static TransactWriteItem write(Put.Builder put) {
        return TransactWriteItem.builder().put(put.build()).build();
    }
}
