package io.worldflow.world.aws.internal;

import io.worldflow.ErrorInfo;
import io.worldflow.RunFinishedException;
import io.worldflow.RunInfo;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStateException;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.event.WorkflowFailed;
import io.worldflow.event.WorkflowRetried;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.EventLog;
import io.worldflow.spi.Lease;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.StoredLog;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import static io.worldflow.world.aws.internal.Attrs.micros;
import static io.worldflow.world.aws.internal.Attrs.n;
import static io.worldflow.world.aws.internal.Attrs.s;

/**
 * The event log. Each append is one DynamoDB transaction: the log's pages ({@link EventPages}) and an update
 * of the run's item (length, status, output or error, hold cleared, consumed signals, turn, head) conditioned on
 * the item's length being the expected seq, and its turn version and head unchanged since it was read. The pages'
 * record is linked over that head ({@code LogChain}) and its link becomes the run's head. When the events change the
 * run's search attributes, the items of the search table that change with them are in the same transaction
 * ({@link SearchIndex}), as they are in the one that creates a run. A batch's appends are independent transactions,
 * run in parallel: DynamoDB bills per item, so one transaction for many runs would save nothing and let one run's
 * conflict cancel the others. An append with effects on other runs is written by {@link AppendWithEffects}.
 */
final class DynamoEventLog implements EventLog {

    private final Store store;
    private final SignalCleanup cleanup;
    private final DynamoPurge purge;
    private final AppendWithEffects withEffects;
    private final StoredLogs storedLogs;
    private final KeyOrder keyOrder;

    DynamoEventLog(Store store, SignalCleanup cleanup, DynamoSignals signals) {
        this.store = store;
        this.cleanup = cleanup;
        this.purge = new DynamoPurge(store);
        this.withEffects = new AppendWithEffects(store, this, signals);
        this.storedLogs = new StoredLogs(store);
        this.keyOrder = new KeyOrder(store);
    }

    /** One transaction's items: {@code first}, then a put of each event page. */
    List<TransactWriteItem> withPages(TransactWriteItem first, List<Map<String, AttributeValue>> pages) {
        List<TransactWriteItem> items = new ArrayList<>(pages.size() + 1);
        items.add(first);
        for (Map<String, AttributeValue> page : pages) {
            items.add(TransactWriteItem.builder()
                    .put(Put.builder()
                            .tableName(store.tables.events())
                            .item(page)
                            .build())
                    .build());
        }
        return items;
    }

    @Override
    public CreateResult create(NewRun run) {
        return create(run, null, null);
    }

    /**
     * Creates the run as {@link #create(NewRun)} does and, when this call creates it and its first turn is due by now
     * in its own queue, leases that turn for {@code leaseFor} in the same transaction ({@code WorkerAccess#createLeased}):
     * nobody is told of the turn, and this process keeps the run as it wrote it ({@link HeldTurns}).
     */
    CreateResult createLeased(NewRun run, Duration leaseFor) {
        Instant now = store.clock.instant();
        if (run.waits() || run.availableAt().isAfter(now)) {
            return create(run, null, null);
        }
        return create(run, UUID.randomUUID().toString(), now.plus(leaseFor));
    }

    /** Creates the run, its first turn leased under {@code token} until {@code expiresAt} unless that is null. */
    private CreateResult create(NewRun run, String token, Instant expiresAt) {
        EventPages.Record started = EventPages.started(run, store.codec);
        byte[] link = started.link(null, store.chainKey);
        Map<String, AttributeValue> item = RunItem.created(run, link, store.shards);
        if (token != null) {
            RunItem.firstTurn(run, micros(run.availableAt()))
                    .lease(token, micros(expiresAt))
                    .putOn(item, run.runId(), store.shards);
        }
        for (int attempt = 1; ; attempt++) {
            Map<String, AttributeValue> written = item;
            TransactWriteItem linked = null;
            if (KeyOrder.chained(run)) {
                // read at every attempt: a run of the same key created meanwhile has moved the link on
                String prev = keyOrder.last(run);
                if (prev != null) {
                    written = new HashMap<>(item);
                    written.put(RunItem.PREV, s(prev));
                }
                linked = keyOrder.link(run, prev);
            }
            List<TransactWriteItem> writes = creation(run, written, started.items(link));
            if (linked != null) {
                writes.add(linked);
            }
            try {
                AwsFailures.run(
                        "creating run " + run.runId(),
                        () -> store.dynamo.transactWriteItems(b -> b.transactItems(writes)));
                RunInfo info = run.createdInfo(t -> Attrs.instant(micros(t)));
                if (token == null) {
                    store.turnDue(run.turnQueue(), run.queue(), run.runId(), micros(run.availableAt()));
                    return new CreateResult(info, true);
                }
                store.held.leased(item, false);
                return new CreateResult(info, true, new Lease(run.runId(), token, run.queue(), expiresAt, 1));
            } catch (TransactionCanceledException e) {
                Map<String, AttributeValue> existing = store.run(run.runId());
                if (existing != null) {
                    return new CreateResult(info(existing), false);
                }
                if (attempt >= Store.MAX_RACES) {
                    throw Store.tooManyRaces("creating run " + run.runId());
                }
                Store.backoff(attempt);
            }
        }
    }

    /** The writes that create the run whose item is {@code item}: the item, its log's first pages, its search keys. */
    private List<TransactWriteItem> creation(
            NewRun run, Map<String, AttributeValue> item, List<Map<String, AttributeValue>> pages) {
        List<TransactWriteItem> items = withPages(
                TransactWriteItem.builder()
                        .put(Put.builder()
                                .tableName(store.tables.runs())
                                .item(item)
                                .conditionExpression("attribute_not_exists(#id)")
                                .expressionAttributeNames(Map.of("#id", RunItem.ID))
                                .build())
                        .build(),
                pages);
        items.addAll(SearchIndex.created(store.tables.search(), run, store.shards));
        return items;
    }

    RunInfo info(String runId) {
        Map<String, AttributeValue> item = store.run(runId);
        if (item == null) {
            throw new RunNotFoundException(runId);
        }
        return info(item);
    }

    RunInfo info(Map<String, AttributeValue> item) {
        String runId = Attrs.str(item, RunItem.ID);
        return RunItem.info(item, store.codec, seq -> store.payloadAt(runId, seq));
    }

    @Override
    public List<AppendResult> append(List<Append> appends) {
        return append(appends, null);
    }

    /**
     * Appends; with {@code leases} not null, the starts it {@link StartLeases#wants wants} that the appends create are
     * leased in their transactions and recorded there.
     */
    List<AppendResult> append(List<Append> appends, StartLeases leases) {
        if (appends.size() <= 1) {
            return appends.stream().map(a -> appendOne(a, leases)).toList();
        }
        // appends of one run are applied in order (a later one expects the log an earlier one leaves);
        // different runs in parallel
        Map<String, List<Integer>> byRun = new LinkedHashMap<>();
        for (int i = 0; i < appends.size(); i++) {
            byRun.computeIfAbsent(appends.get(i).runId(), k -> new ArrayList<>())
                    .add(i);
        }
        AppendResult[] results = new AppendResult[appends.size()];
        Store.eachAtOnce(
                byRun.values(),
                indexes -> {
                    for (int i : indexes) {
                        results[i] = appendOne(appends.get(i), leases);
                    }
                },
                "appending");
        return List.of(results);
    }

    /**
     * One append. A run whose turn this process holds is written from what it last wrote ({@link HeldTurns}) when that
     * has the expected length, with no cancellation requested as a further condition when it knows of none; a write
     * refused for it is not a conflict yet, only a reason to read the item, as every other append does first.
     */
    private AppendResult appendOne(Append a, StartLeases leases) {
        EventPages.Record record = EventPages.record(a.runId(), a.events(), store.codec);
        if (a.hasEffects()) {
            return withEffects.append(a, record, leases);
        }
        KnownRun held = store.held.get(a.runId());
        for (int attempt = 1; ; attempt++) {
            boolean fromHeld = held != null && held.length() == a.expectedSeq();
            KnownRun run;
            if (fromHeld) {
                run = held;
            } else {
                Map<String, AttributeValue> item = store.run(a.runId());
                AppendResult refused = RunItem.refusal(item, a.expectedSeq());
                if (refused != null) {
                    return refused;
                }
                run = KnownRun.of(item);
            }
            held = null;
            TurnState turn = run.turn();
            TurnState next = nextTurn(a, turn);
            byte[] link = record.link(run.head(), store.chainKey);
            SearchIndex.Change search = SearchIndex.change(a.runId(), run.search(), run.searchShard(), a.events());
            Update u = update(a, search, turn, next, run.head(), link);
            if (fromHeld && !run.cancelRequested()) {
                u.when("attribute_not_exists(#" + RunItem.CANCEL_AT + ")");
            }
            List<TransactWriteItem> items = withPages(u.transactItem(), record.items(link));
            items.addAll(search.items(store.tables.search(), a.runId(), run.createdKey()));
            try {
                AwsFailures.run(
                        "appending to run " + a.runId(),
                        () -> store.dynamo.transactWriteItems(b -> b.transactItems(items)));
            } catch (TransactionCanceledException e) {
                store.held.forget(a.runId());
                if (fromHeld) {
                    continue; // the run moved since this process wrote it: read it
                }
                if (attempt >= Store.MAX_RACES) {
                    throw Store.tooManyRaces("appending to run " + a.runId());
                }
                Store.backoff(attempt);
                continue; // the next read tells a conflict (length moved) from a race on the turn or the head
            }
            store.held.wrote(run.after(a.nextSeq(), link, search.after(), next));
            committed(a, turn, next);
            return new AppendResult(true, a.nextSeq(), run.cancelRequested());
        }
    }

    /**
     * The update of the run's item an append makes (length, status, output or error, hold cleared, consumed signals,
     * its search attributes as {@code search} leaves them, its turn, its head when it writes a record whose link is
     * {@code link}), conditioned on the log's length being the expected one, the turn being {@code turn} and, when it
     * writes a record, the head being {@code head}. The length also fences the attributes: only an append changes them.
     */
    Update update(Append a, SearchIndex.Change search, TurnState turn, TurnState next, byte[] head, byte[] link) {
        Update u = new Update(store.tables.runs(), RunItem.key(a.runId()));
        u.set(RunItem.LENGTH, n(a.nextSeq()))
                .set(RunItem.STATUS, RunItem.status(a.status(), a.runId(), store.shards))
                .remove(RunItem.HELD)
                .remove(RunItem.HELD_SINCE)
                .remove(RunItem.HELD_KEY);
        if (a.lastAt() != null) {
            u.set(RunItem.UPDATED, n(micros(a.lastAt())));
        }
        projectOutcome(a, u);
        if (a.carrySignalsTo() != null) {
            u.set(RunItem.SUCCESSOR, s(a.carrySignalsTo()));
        }
        if (search.changes()) {
            u.set(SearchIndex.ATTRIBUTES, SearchIndex.itemValue(search.after()));
        }
        if (!a.consumedSignals().isEmpty()) {
            u.add(
                    RunItem.CONSUMED,
                    AttributeValue.fromNs(
                            a.consumedSignals().stream().map(String::valueOf).toList()));
        }
        if (next != turn) {
            next.writeTo(u, a.runId(), store.shards);
        }
        u.when("#" + RunItem.LENGTH + " = ?", n(a.expectedSeq()));
        if (link != null) {
            RunItem.chain(u, head, link);
        }
        turn.expectOn(u);
        return u;
    }

    /** After an append committed: its run's next turn announced, the signals it consumed cleaned up. */
    void committed(Append a, TurnState turn, TurnState next) {
        if (next.hasTurn() && !next.isLeased() && !Objects.equals(next.available(), turn.available())) {
            store.turnDue(next.queue(), next.runQueue(), a.runId(), next.available());
        }
        if (!a.consumedSignals().isEmpty()) {
            cleanup.consumed(a.runId(), a.consumedSignals());
        }
    }

    /**
     * The turn after the append: none for a finished run, ended when the append ends the writer's lease,
     * else the same object (the append leaves the turn alone but is still conditioned on its version).
     */
    static TurnState nextTurn(Append a, TurnState turn) {
        if (a.status().isTerminal()) {
            return turn.none();
        }
        if (a.turnEnd() != null
                && turn.isLeased()
                && turn.token().equals(a.turnEnd().lease().token())) {
            return turn.complete(
                    a.turnEnd().wakeAt() == null ? null : micros(a.turnEnd().wakeAt()));
        }
        return turn; // unchanged: the item's turn attributes (and the due index) are not written
    }

    private void projectOutcome(Append a, Update u) {
        for (Event e : a.events()) {
            if (e instanceof WorkflowCompleted c) {
                if (RunItem.fitsInline(c.output().json())) {
                    u.set(RunItem.OUTPUT, s(c.output().json()));
                    u.set(
                            RunItem.OUTPUT_TYPE,
                            c.output().type() == null ? null : s(c.output().type()));
                } else {
                    u.set(RunItem.OUTPUT_REF, n(c.seq()));
                }
            } else if (e instanceof WorkflowFailed f) {
                String json = store.codec.encodeError(f.error());
                if (RunItem.fitsInline(json)) {
                    u.set(RunItem.ERROR, s(json));
                } else {
                    u.set(RunItem.ERROR_REF, n(f.seq()));
                }
            }
        }
    }

    @Override
    public List<Event> read(String runId, long fromSeq) {
        List<Event> events = store.events(runId, Math.max(0, fromSeq), false);
        if (events.isEmpty() && store.run(runId) == null) {
            throw new RunNotFoundException(runId);
        }
        return events;
    }

    /** The run's item, then its pages up to the length it states: see {@link StoredLogs}. */
    @Override
    public StoredLog storedLog(String runId) {
        return storedLogs.read(runId);
    }

    @Override
    public void requestCancel(String runId, String reason, boolean terminate, String actor) {
        for (int attempt = 1; ; attempt++) {
            Map<String, AttributeValue> item = store.run(runId);
            if (item == null) {
                throw new RunNotFoundException(runId);
            }
            RunStatus status = RunItem.status(item);
            if (status.isTerminal()) {
                throw new RunFinishedException(runId, status, terminate ? "terminate" : "cancel");
            }
            TurnState turn = TurnState.of(item);
            long now = store.nowMicros();
            TurnState next = turn.request(Attrs.str(item, RunItem.QUEUE), now);
            Update u = new Update(store.tables.runs(), RunItem.key(runId));
            boolean first = !RunItem.cancelRequested(item);
            if (first) {
                u.set(RunItem.CANCEL_AT, n(now));
                if (reason != null) {
                    u.set(RunItem.CANCEL_REASON, s(reason));
                }
            }
            if (terminate) {
                u.set(RunItem.CANCEL_TERMINATE, n(1)); // once asked for, it stays
            }
            // the asker is the first one, or the one who raised a cancellation to a termination
            if (first || (terminate && !item.containsKey(RunItem.CANCEL_TERMINATE))) {
                if (actor != null) {
                    u.set(RunItem.CANCEL_ACTOR, s(actor));
                } else {
                    u.remove(RunItem.CANCEL_ACTOR);
                }
            }
            next.writeTo(u, runId, store.shards);
            turn.expectOn(u);
            try {
                AwsFailures.call("requesting cancellation of run " + runId, () -> store.dynamo.updateItem(u.request()));
            } catch (ConditionalCheckFailedException e) {
                if (attempt >= Store.MAX_RACES) {
                    throw Store.tooManyRaces("requesting cancellation of run " + runId);
                }
                Store.backoff(attempt);
                continue;
            }
            store.held.forget(runId); // its turn moved: a turn of it held here is read at its next append
            if (!next.isLeased()) {
                store.turnDue(next.queue(), next.runQueue(), runId, next.available());
            }
            return;
        }
    }

    /**
     * One transaction: the event's page linked over the run's head, and the run item back to PENDING with the error
     * cleared, a turn due and the event's link as its head, conditioned on the log's length (a finished run's log
     * never grows, so it also fences a second retry), on the head, on the turn's version, and on no purge having
     * claimed the run ({@link DynamoPurge}): a run being deleted reads as unknown.
     */
    @Override
    public void reopen(WorkflowRetried retried) {
        String runId = retried.runId();
        EventPages.Record record = EventPages.record(runId, List.of(retried), store.codec);
        for (int attempt = 1; ; attempt++) {
            Map<String, AttributeValue> item = store.run(runId);
            if (item == null) {
                throw new RunNotFoundException(runId);
            }
            if (item.containsKey(DynamoPurge.CLAIM)) {
                throw new RunNotFoundException(runId); // being deleted by a purge
            }
            RunStatus status = RunItem.status(item);
            if (status != RunStatus.FAILED) {
                throw RunStateException.notFailed(runId, status);
            }
            long length = RunItem.length(item);
            if (length != retried.seq()) {
                throw RunStateException.logMoved(runId, length, retried.seq());
            }
            TurnState turn = TurnState.of(item);
            TurnState next = turn.request(Attrs.str(item, RunItem.QUEUE), micros(retried.at()));
            Update u = new Update(store.tables.runs(), RunItem.key(runId));
            u.set(RunItem.LENGTH, n(retried.seq() + 1))
                    .set(RunItem.STATUS, RunItem.status(RunStatus.PENDING, runId, store.shards))
                    .set(RunItem.UPDATED, n(micros(retried.at())))
                    .remove(RunItem.ERROR)
                    .remove(RunItem.ERROR_REF)
                    .remove(RunItem.HELD)
                    .remove(RunItem.HELD_SINCE)
                    .remove(RunItem.HELD_KEY);
            next.writeTo(u, runId, store.shards);
            u.when("#" + RunItem.LENGTH + " = ?", n(retried.seq()));
            u.when("attribute_not_exists(#" + DynamoPurge.CLAIM + ")");
            byte[] head = RunItem.head(item);
            byte[] link = record.link(head, store.chainKey);
            RunItem.chain(u, head, link);
            turn.expectOn(u);
            List<TransactWriteItem> items = withPages(u.transactItem(), record.items(link));
            try {
                AwsFailures.run(
                        "retrying run " + runId, () -> store.dynamo.transactWriteItems(b -> b.transactItems(items)));
            } catch (TransactionCanceledException e) {
                if (attempt >= Store.MAX_RACES) {
                    throw Store.tooManyRaces("retrying run " + runId);
                }
                Store.backoff(attempt);
                continue; // the next read says whether another retry won
            }
            store.turnDue(next.queue(), next.runQueue(), runId, next.available());
            return;
        }
    }

    /** Run by run, each claimed first so that it cannot be reopened meanwhile: see {@link DynamoPurge}. */
    @Override
    public int purgeFinished(Instant finishedBefore, int limit) {
        return purge.purge(finishedBefore, limit);
    }

    @Override
    public void hold(String runId, ErrorInfo reason) {
        String json = store.codec.encodeError(reason);
        if (!RunItem.fitsInline(json)) {
            json = store.codec.encodeError(new ErrorInfo(
                    reason.type(), truncate(reason.message()), truncate(reason.stackTrace()), reason.causeTypes()));
        }
        Update u = new Update(store.tables.runs(), RunItem.key(runId))
                .set(RunItem.HELD, s(json))
                .set(RunItem.HELD_KEY, s(store.shards.key(RunItem.HELD_KEY_VALUE, runId)))
                .when("attribute_exists(#" + RunItem.ID + ")");
        // a hold keeps the time it began while it lasts
        u.setExpression(u.name(RunItem.HELD_SINCE) + " = if_not_exists(" + u.name(RunItem.HELD_SINCE) + ", "
                + u.value(n(store.nowMicros())) + ")");
        try {
            AwsFailures.call("holding run " + runId, () -> store.dynamo.updateItem(u.request()));
        } catch (ConditionalCheckFailedException e) {
            throw new RunNotFoundException(runId);
        }
    }

    private static String truncate(String s) {
        return s == null || s.length() <= 4000 ? s : s.substring(0, 4000) + "…";
    }
}
