package io.worldflow.world.aws.internal;

import io.worldflow.RunFinishedException;
import io.worldflow.RunInfo;
import io.worldflow.RunNotFoundException;
import io.worldflow.WorldException;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.Lease;
import io.worldflow.spi.LoadedRun;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.OutgoingCancel;
import io.worldflow.spi.OutgoingSignal;
import io.worldflow.world.aws.PayloadTooLargeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.worldflow.world.aws.internal.Attrs.micros;
import static io.worldflow.world.aws.internal.Attrs.n;
import static io.worldflow.world.aws.internal.Attrs.num;
import static io.worldflow.world.aws.internal.Attrs.s;
import static io.worldflow.world.aws.internal.Attrs.str;

/**
 * An append with effects on other runs ({@link Append#starts}, {@link Append#signals}, {@link Append#cancels},
 * {@link Append#carrySignalsTo}), in the append's own transaction where it fits: besides the run's update, event pages
 * and search attributes' items, each other run's item is written once (DynamoDB lets a transaction touch an item once),
 * either put as a new run with what the append sends it folded in (its search attributes' items with it), or updated
 * (its turn requested, its cancellation marked, signals numbered from ids taken from its counter just before), each
 * conditioned on what was read of it; then the signals' and keys' items. A run that does not exist or has finished is
 * left out, as the facet methods would refuse it. When anything read changes before the commit, the transaction fails
 * and everything is read again.
 *
 * <p>Past one transaction (100 items, 4 MB) the starts, signals and cancellations are written before the append, each
 * by its facet method ({@code create}, {@code send}, {@code requestCancel}), and are then not undone if the append is
 * refused. Each is idempotent, except a signal sent without a key, which a writer that retries the refused append
 * stores again; and the append's own signals to the run it hands its signals to then come before the carried ones.
 * The carry is always in the append's transaction: it is one item whatever it carries ({@link SignalCarry}).
 */
final class AppendWithEffects {

    private static final Logger log = LoggerFactory.getLogger(AppendWithEffects.class);

    /** Items in one DynamoDB transaction. */
    private static final int MAX_ITEMS = 100;
    /** Bytes in one DynamoDB transaction (4 MB), with room for names, keys and what is not counted. */
    private static final long MAX_BYTES = 3_900_000;
    /** What an item adds to a transaction besides its payload, counted generously. */
    private static final long ITEM_BYTES = 1_024;
    /**
     * What a search attribute's item adds, counted generously: its key (a name, a stored value of at most 256
     * characters) and the run's id and creation key.
     */
    private static final long SEARCH_ITEM_BYTES = 2 * ITEM_BYTES;

    private final Store store;
    private final DynamoEventLog eventLog;
    private final DynamoSignals signals;

    AppendWithEffects(Store store, DynamoEventLog eventLog, DynamoSignals signals) {
        this.store = store;
        this.eventLog = eventLog;
        this.signals = signals;
    }

    /**
     * Writes the append and its effects; {@code record} is its events' log record. With {@code leases} not null, the
     * starts it {@link StartLeases#wants wants} that the transaction creates are put with their first turn leased.
     */
    AppendResult append(Append a, EventPages.Record record, StartLeases leases) {
        for (OutgoingSignal signal : a.signals()) {
            int size = signal.payload().json().getBytes(StandardCharsets.UTF_8).length;
            if (size > DynamoSignals.MAX_PAYLOAD_BYTES) {
                throw new PayloadTooLargeException(
                        "the payload of signal '" + signal.name() + "' to run " + signal.runId() + " in an append to "
                                + a.runId(),
                        size,
                        DynamoSignals.MAX_PAYLOAD_BYTES);
            }
        }
        Map<String, EventPages.Record> started = new LinkedHashMap<>();
        for (NewRun run : a.starts()) {
            started.put(run.runId(), EventPages.started(run, store.codec));
        }
        boolean together = fits(a, record, started);
        boolean writtenBefore = false;
        for (int attempt = 1; ; attempt++) {
            Map<String, AttributeValue> item = store.run(a.runId());
            AppendResult refused = RunItem.refusal(item, a.expectedSeq());
            if (refused != null) {
                return refused;
            }
            boolean cancel = RunItem.cancelRequested(item);
            if (!together && !writtenBefore) {
                writeBefore(a);
                writtenBefore = true;
                continue; // read the run again: its effects took time
            }
            if (a.carrySignalsTo() != null && signals.carry().rollForward(a.runId(), item)) {
                continue; // signals carried to this run are its own before it carries them on
            }
            TurnState turn = TurnState.of(item);
            TurnState next = DynamoEventLog.nextTurn(a, turn);
            byte[] head = RunItem.head(item);
            byte[] link = record.link(head, store.chainKey);
            SearchIndex.Change search = SearchIndex.change(item, a.events());
            Update update = eventLog.update(a, search, turn, next, head, link);
            Plan plan = new Plan(a.runId(), store.nowMicros(), leases);
            plan(a, item, update, together ? started : null, plan);
            List<TransactWriteItem> items = eventLog.withPages(update.transactItem(), record.items(link));
            items.addAll(search.items(store.tables.search(), a.runId(), str(item, RunItem.CREATED_KEY)));
            items.addAll(plan.items);
            try {
                AwsFailures.run(
                        "appending to run " + a.runId() + " with its effects on " + plan.targets + " other run(s)",
                        () -> store.dynamo.transactWriteItems(b -> b.transactItems(items)));
            } catch (TransactionCanceledException e) {
                if (attempt >= Store.MAX_RACES) {
                    throw Store.tooManyRaces("appending to run " + a.runId());
                }
                Store.backoff(attempt);
                continue; // a conflict, or the run's head or a run read for the effects changed: read again
            }
            store.held.wrote(KnownRun.of(item).after(a.nextSeq(), link, search.after(), next));
            eventLog.committed(a, turn, next);
            plan.afterCommit();
            return new AppendResult(true, a.nextSeq(), cancel);
        }
    }

    /**
     * Whether the append and all its effects fit one transaction, counted before anything is read: every start as
     * a new run with its search attributes' items, every signal with its key, one item for each other run they reach,
     * and the most items the append's own search attributes may take ({@link SearchIndex#mostItems}).
     */
    private static boolean fits(Append a, EventPages.Record record, Map<String, EventPages.Record> started) {
        int searchItems = SearchIndex.mostItems(a.events());
        long items = 1 + record.parts().size() + searchItems;
        long bytes = ITEM_BYTES + pageBytes(record) + searchItems * SEARCH_ITEM_BYTES;
        for (NewRun run : a.starts()) {
            EventPages.Record first = started.get(run.runId());
            int attributes = run.searchAttributes().size();
            items += 1 + first.parts().size() + attributes;
            bytes += ITEM_BYTES
                    + Math.min(RunItem.INLINE_BYTES, run.input().json().length() * 3L)
                    + pageBytes(first)
                    + attributes * 2 * SEARCH_ITEM_BYTES; // their items, and their map on the run's item
        }
        Set<String> reached = new HashSet<>();
        for (OutgoingSignal signal : a.signals()) {
            items += signal.key() == null ? 1 : 2;
            bytes += ITEM_BYTES * 2 + signal.payload().json().getBytes(StandardCharsets.UTF_8).length;
            reached.add(signal.runId());
        }
        a.cancels().forEach(c -> reached.add(c.runId()));
        reached.removeAll(started.keySet());
        items += reached.size();
        bytes += reached.size() * ITEM_BYTES;
        return items <= MAX_ITEMS && bytes <= MAX_BYTES;
    }

    /** What a record's items add to a transaction: its text, and each part as an item (its link included). */
    private static long pageBytes(EventPages.Record record) {
        return record.bytes() + record.parts().size() * ITEM_BYTES;
    }

    /**
     * The effects that do not fit the transaction, each by its facet method: the starts side by side, then each
     * run's signals in order (runs side by side), then the cancellations. A run that does not exist or has finished
     * is left out, as in the transaction.
     */
    private void writeBefore(Append a) {
        inParallel(a.starts().stream()
                .map(run -> (Runnable) () -> eventLog.create(run))
                .toList());
        Map<String, List<OutgoingSignal>> byRun = new LinkedHashMap<>();
        a.signals()
                .forEach(sg -> byRun.computeIfAbsent(sg.runId(), k -> new ArrayList<>())
                        .add(sg));
        inParallel(byRun.values().stream()
                .map(list -> (Runnable) () ->
                        list.forEach(sg -> skipGone(() -> signals.send(sg.runId(), sg.name(), sg.payload(), sg.key()))))
                .toList());
        inParallel(a.cancels().stream()
                .map(c -> (Runnable) () -> skipGone(() -> eventLog.requestCancel(c.runId(), c.reason(), c.terminate())))
                .toList());
    }

    private static void skipGone(Runnable effect) {
        try {
            effect.run();
        } catch (RunNotFoundException | RunFinishedException gone) {
            // as in the transaction: a run that does not exist or has finished takes nothing
        }
    }

    private static void inParallel(List<Runnable> work) {
        if (work.size() <= 1) {
            work.forEach(Runnable::run);
            return;
        }
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> futures = new ArrayList<>();
            for (Runnable w : work) {
                futures.add(pool.submit(w));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorldException("AWS world: interrupted while writing an append's effects", true, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new WorldException("AWS world: an append's effect failed", false, e.getCause());
        }
    }

    /**
     * Adds the effects to {@code plan}: those in the transaction when {@code started} is not null (else they were
     * written before), and the carry of the signals of the run whose item is {@code item} and whose append is
     * {@code update}.
     */
    private void plan(
            Append a,
            Map<String, AttributeValue> item,
            Update update,
            Map<String, EventPages.Record> started,
            Plan plan) {
        Map<String, Target> targets = new LinkedHashMap<>();
        if (started != null) {
            for (NewRun run : a.starts()) {
                Target t = target(targets, run.runId());
                t.start = run;
                t.started = started.get(run.runId());
            }
            a.signals().forEach(sg -> target(targets, sg.runId()).signals.add(sg));
            for (OutgoingCancel c : a.cancels()) {
                Target t = target(targets, c.runId());
                t.reason = t.cancel ? t.reason : c.reason();
                t.cancel = true;
                t.terminate |= c.terminate();
            }
        }
        if (a.carrySignalsTo() != null) {
            long counter = num(item, RunItem.SIGNAL_SEQ, 0);
            if (counter > 0) {
                target(targets, a.carrySignalsTo()).carried = counter;
            } else {
                // nothing to carry, unless a signal is numbered before the commit: then the run is read again and
                // carries it (only while it never had one, so signals sent without pause cannot hold it back)
                update.when("#" + RunItem.SIGNAL_SEQ + " = ?", n(0));
            }
        }
        if (targets.isEmpty()) {
            return;
        }
        Map<String, Map<String, AttributeValue>> found = new LinkedHashMap<>();
        for (Map<String, AttributeValue> other : store.runs(List.copyOf(targets.keySet()))) {
            found.put(str(other, RunItem.ID), other);
        }
        for (Target t : targets.values()) {
            Map<String, AttributeValue> other = found.get(t.runId);
            if (other != null && t.carried > 0 && signals.carry().rollForward(t.runId, other)) {
                other = store.run(t.runId); // a carry into it not yet copied: copied first, one at a time
            }
            if (other == null) {
                if (t.start != null) {
                    create(t, plan);
                }
            } else if (!RunItem.status(other).isTerminal()) {
                update(t, other, plan);
            }
        }
    }

    private static Target target(Map<String, Target> targets, String runId) {
        return targets.computeIfAbsent(runId, Target::new);
    }

    /** A new run, put with the signals, cancellation and carry the append sends it. */
    private void create(Target t, Plan plan) {
        NewRun run = t.start;
        List<OutgoingSignal> sent = t.distinctKeys();
        byte[] link = t.started.link(null, store.chainKey);
        Map<String, AttributeValue> put = new LinkedHashMap<>(RunItem.created(run, link, store.shards));
        put.put(RunItem.SIGNAL_SEQ, n(t.carried + sent.size()));
        long due = micros(run.availableAt());
        if (t.wakes(sent) && plan.now < due) {
            due = plan.now; // what a send or a cancellation does to a run whose first turn is later
            RunItem.firstTurn(run, due).putOn(put, run.runId(), store.shards);
        }
        Lease lease = null;
        if (plan.leases != null && plan.leases.wants(run)) {
            lease = new Lease(run.runId(), UUID.randomUUID().toString(), run.queue(), plan.leases.expires(), 1);
            RunItem.firstTurn(run, due)
                    .lease(lease.token(), micros(lease.expiresAt()))
                    .putOn(put, run.runId(), store.shards);
        }
        if (t.cancel) {
            put.put(RunItem.CANCEL_AT, n(plan.now));
            if (t.reason != null) {
                put.put(RunItem.CANCEL_REASON, s(t.reason));
            }
            if (t.terminate) {
                put.put(RunItem.CANCEL_TERMINATE, n(1));
            }
        }
        if (t.carried > 0) {
            put.put(RunItem.CARRY_FROM, s(plan.runId));
            put.put(RunItem.CARRY_BASE, n(0));
            put.put(RunItem.CARRY_UP_TO, n(t.carried));
        }
        plan.add(Put.builder()
                .tableName(store.tables.runs())
                .item(put)
                .conditionExpression("attribute_not_exists(#id)")
                .expressionAttributeNames(Map.of("#id", RunItem.ID)));
        for (Map<String, AttributeValue> page : t.started.items(link)) {
            plan.add(Put.builder().tableName(store.tables.events()).item(page));
        }
        plan.items.addAll(SearchIndex.created(store.tables.search(), run, store.shards));
        plan.targets++;
        addSignals(t.runId, t.carried, sent, plan, false);
        long dueAt = due;
        if (lease == null) {
            plan.afterCommit(() -> store.turnDue(run.turnQueue(), run.queue(), run.runId(), dueAt));
        } else {
            // begun by the appending worker: nobody else is told of the turn
            Lease granted = lease;
            plan.afterCommit(() -> {
                store.held.leased(put, false);
                RunInfo info = RunItem.info(put, store.codec, seq -> run.input());
                plan.leases.leased(granted, new LoadedRun(info, List.of(run.startedEvent())));
            });
        }
        plan.carry(t);
    }

    /** An existing, unfinished run, updated once with all the append sends it. */
    private void update(Target t, Map<String, AttributeValue> other, Plan plan) {
        List<OutgoingSignal> sent = new ArrayList<>();
        for (OutgoingSignal signal : t.distinctKeys()) {
            if (signal.key() == null || signals.firstWithKey(t.runId, signal.key()) == null) {
                sent.add(signal); // a key the run has taken: a duplicate, as a send of it would be
            }
        }
        boolean cancelNow = t.cancel && !RunItem.cancelRequested(other);
        // a termination raises a cancellation already requested, and stays
        boolean terminateNow = t.terminate && !other.containsKey(RunItem.CANCEL_TERMINATE);
        TurnState turn = TurnState.of(other);
        TurnState next = !t.wakes(sent) || turn.alreadyRequested(plan.now)
                ? turn
                : turn.request(str(other, RunItem.QUEUE), plan.now);
        if (sent.isEmpty() && t.carried == 0 && !cancelNow && !terminateNow && next == turn) {
            return; // nothing to change: a start of a run that exists, duplicates, a cancellation already requested
        }
        // ids for the carried signals, then the append's own, taken now: a failed transaction leaves only a gap
        long reserve = t.carried + sent.size();
        long base = 0;
        if (reserve > 0) {
            Long last = signals.reserve(t.runId, reserve);
            if (last == null) {
                return; // finished since it was read: it takes nothing, as a send would be refused
            }
            base = last - reserve;
        }
        Update u = new Update(store.tables.runs(), RunItem.key(t.runId));
        if (next != turn) {
            next.writeTo(u, t.runId, store.shards);
        }
        if (cancelNow) {
            u.set(RunItem.CANCEL_AT, n(plan.now));
            if (t.reason != null) {
                u.set(RunItem.CANCEL_REASON, s(t.reason));
            }
        }
        if (terminateNow) {
            u.set(RunItem.CANCEL_TERMINATE, n(1));
            u.remove(RunItem.CANCEL_ACTOR); // raised by a run, not by anyone outside
        }
        if (t.carried > 0) {
            u.set(RunItem.CARRY_FROM, s(plan.runId))
                    .set(RunItem.CARRY_BASE, n(base))
                    .set(RunItem.CARRY_UP_TO, n(t.carried));
            u.when("attribute_not_exists(#" + RunItem.CARRY_FROM + ")");
        }
        turn.expectOn(u);
        DynamoSignals.notFinished(u);
        plan.items.add(u.transactItem());
        plan.targets++;
        plan.afterCommit(() -> store.held.forget(t.runId)); // its turn may be held here: read it at its next append
        addSignals(t.runId, base + t.carried, sent, plan, true);
        if (next != turn && !next.isLeased()) {
            plan.afterCommit(() -> store.turnDue(next.queue(), next.runQueue(), t.runId, next.available()));
        }
        plan.carry(t);
    }

    /** The signals' items, numbered from {@code after + 1}, and their keys' (taken only if free, when it may exist). */
    private void addSignals(String runId, long after, List<OutgoingSignal> sent, Plan plan, boolean keysMayExist) {
        long id = after;
        long sentAt = plan.now;
        for (OutgoingSignal signal : sent) {
            id++;
            plan.add(Put.builder()
                    .tableName(store.tables.signals())
                    .item(DynamoSignals.item(runId, id, signal.name(), signal.payload(), sentAt, null)));
            if (signal.key() != null) {
                Put.Builder key = Put.builder()
                        .tableName(store.tables.signalKeys())
                        .item(DynamoSignals.keyItem(runId, signal.key(), id));
                if (keysMayExist) {
                    key.conditionExpression("attribute_not_exists(#r)")
                            .expressionAttributeNames(Map.of("#r", DynamoSignals.RUN));
                }
                plan.add(key);
            }
        }
    }

    /** What the append does to one other run. */
    private static final class Target {
        final String runId;
        NewRun start;
        /** The new run's first record, when the append starts it. */
        EventPages.Record started;

        final List<OutgoingSignal> signals = new ArrayList<>();
        boolean cancel;
        boolean terminate;
        String reason;
        /** The appending run's signal counter when its signals are carried here, else 0. */
        long carried;

        Target(String runId) {
            this.runId = runId;
        }

        /** The signals, less those whose key an earlier one of the append has (a duplicate of it). */
        List<OutgoingSignal> distinctKeys() {
            Set<String> keys = new HashSet<>();
            return signals.stream()
                    .filter(sg -> sg.key() == null || keys.add(sg.key()))
                    .toList();
        }

        /**
         * Whether the run is due for a turn at the commit: a signal or a cancellation, as their facet methods make it
         * due, or a carry from a run that ever took a signal.
         */
        boolean wakes(List<OutgoingSignal> sent) {
            return !sent.isEmpty() || cancel || carried > 0;
        }
    }

    /** The transaction's items for the other runs, and what follows the commit. */
    private final class Plan {
        final String runId;
        final long now;
        final List<TransactWriteItem> items = new ArrayList<>();
        final List<Runnable> afterCommit = new ArrayList<>();
        /** The starts to lease to the appending worker, or null. */
        final StartLeases leases;

        int targets;

        Plan(String runId, long now, StartLeases leases) {
            this.runId = runId;
            this.now = now;
            this.leases = leases;
        }

        void add(Put.Builder put) {
            items.add(TransactWriteItem.builder().put(put.build()).build());
        }

        void afterCommit(Runnable r) {
            afterCommit.add(r);
        }

        /**
         * Runs what follows the commit. The append has committed whatever happens here: a failure only delays a wake-up
         * (workers find due turns in DynamoDB anyway) or leaves a carry for the successor's next reader to copy.
         */
        void afterCommit() {
            for (Runnable r : afterCommit) {
                try {
                    r.run();
                } catch (RuntimeException e) {
                    log.warn("after the append to run {} committed: {} (completed later)", runId, e.toString());
                }
            }
        }

        /** The carry into {@code t}, copied at once after the commit (any later reader would do it too). */
        void carry(Target t) {
            if (t.carried > 0) {
                afterCommit(() -> {
                    Map<String, AttributeValue> successor = store.run(t.runId);
                    if (successor != null) {
                        signals.carry().rollForward(t.runId, successor);
                    }
                });
            }
        }
    }
}
