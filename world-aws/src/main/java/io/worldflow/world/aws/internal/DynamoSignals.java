package io.worldflow.world.aws.internal;

import io.worldflow.Payload;
import io.worldflow.RunFinishedException;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStatus;
import io.worldflow.spi.PendingSignal;
import io.worldflow.spi.RevokedUrl;
import io.worldflow.spi.SignalKey;
import io.worldflow.spi.SignalSent;
import io.worldflow.spi.Signals;
import io.worldflow.world.aws.PayloadTooLargeException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import static io.worldflow.world.aws.internal.Attrs.n;
import static io.worldflow.world.aws.internal.Attrs.s;
import static io.worldflow.world.aws.internal.Attrs.str;

/**
 * Signals: an item per signal in the signals table, its id from the run's counter (an atomic ADD), stored
 * with the run's turn in one transaction so the run is due whenever a signal is kept. A run whose item records
 * signals carried to it ({@link SignalCarry}) has that carry completed before its signals are listed or a new one
 * is checked against its keys. A revoked signal URL is an item of the signal keys table, beside the keys the run's
 * signals were sent with, under a key no signal's can be ({@link #REVOKED}) and with no signal id; revocations are not
 * carried, as a URL names its run.
 */
final class DynamoSignals implements Signals {

    static final String RUN = "run";
    static final String ID = "sid";
    static final String NAME = "name";
    static final String PAYLOAD = "p";
    static final String PAYLOAD_TYPE = "pT";
    static final String SENT_AT = "at";
    static final String KEY = "key";
    /** Who sent it, when known. */
    static final String ACTOR = "by";
    /**
     * What the key of a revoked signal URL's item in the signal keys table begins with, the token id following. It is
     * 201 characters, more than a signal's key may have ({@link SignalKey#MAX_LENGTH}): a signal's key may be any text
     * up to that length, so only a longer one can never be a signal's, and a signal keyed {@code revoked-url:x} can
     * neither take the place of URL x's revocation nor be taken for it. Written out, not derived from that limit,
     * because it is stored. In the run's partition, a revocation goes with the run when the run is purged.
     */
    static final String REVOKED = "revoked-url" + ".".repeat(189) + ":";
    /** Bytes of a signal's JSON payload, at most: one item each, below DynamoDB's 400 KB item limit. */
    static final int MAX_PAYLOAD_BYTES = 256 * 1024;

    private final Store store;
    private final SignalCarry carry;

    DynamoSignals(Store store, SignalCleanup cleanup) {
        this.store = store;
        this.carry = new SignalCarry(store, this, cleanup);
    }

    SignalCarry carry() {
        return carry;
    }

    @Override
    public SignalSent send(String runId, String name, Payload payload, String key, String actor) {
        SignalKey.check(key);
        int size = payload.json().getBytes(StandardCharsets.UTF_8).length;
        if (size > MAX_PAYLOAD_BYTES) {
            throw new PayloadTooLargeException(
                    "the payload of signal '" + name + "' to run " + runId, size, MAX_PAYLOAD_BYTES);
        }
        Map<String, AttributeValue> item = checkedRun(runId);
        if (carry.rollForward(runId, item)) {
            item = checkedRun(runId); // the carried signals and their keys are the run's own now
        }
        if (key != null) {
            Long first = firstWithKey(runId, key);
            if (first != null) {
                return new SignalSent(first, true);
            }
        }
        long id = nextId(runId);
        long sentAt = store.nowMicros();
        Map<String, AttributeValue> signal = item(runId, id, name, payload, sentAt, actor);
        for (int attempt = 1; ; attempt++) {
            if (attempt > 1) {
                item = checkedRun(runId);
            }
            TurnState turn = TurnState.of(item);
            boolean wake = !turn.alreadyRequested(sentAt);
            TurnState next = wake ? turn.request(str(item, RunItem.QUEUE), sentAt) : turn;
            Update u = new Update(store.tables.runs(), RunItem.key(runId));
            if (wake) {
                next.writeTo(u, runId, store.shards);
            }
            turn.expectOn(u);
            notFinished(u);
            List<TransactWriteItem> items = new ArrayList<>(List.of(
                    u.transactItem(),
                    TransactWriteItem.builder()
                            .put(Put.builder()
                                    .tableName(store.tables.signals())
                                    .item(signal)
                                    .build())
                            .build()));
            if (key != null) {
                items.add(TransactWriteItem.builder()
                        .put(Put.builder()
                                .tableName(store.tables.signalKeys())
                                .item(keyItem(runId, key, id))
                                .conditionExpression("attribute_not_exists(#r)")
                                .expressionAttributeNames(Map.of("#r", RUN))
                                .build())
                        .build());
            }
            try {
                AwsFailures.run(
                        "sending signal '" + name + "' to run " + runId,
                        () -> store.dynamo.transactWriteItems(b -> b.transactItems(items)));
            } catch (TransactionCanceledException e) {
                if (key != null) {
                    Long first = firstWithKey(runId, key);
                    if (first != null) {
                        return new SignalSent(first, true); // the same key won a race
                    }
                }
                if (attempt >= Store.MAX_RACES) {
                    throw Store.tooManyRaces("sending a signal to run " + runId);
                }
                Store.backoff(attempt);
                continue;
            }
            if (wake) {
                store.held.forget(runId); // its turn moved: a turn of it held here is read at its next append
            }
            if (wake && !next.isLeased()) {
                store.turnDue(next.queue(), next.runQueue(), runId, next.available());
            }
            return new SignalSent(id, false);
        }
    }

    /** A signal's item. */
    static Map<String, AttributeValue> item(
            String runId, long id, String name, Payload payload, long sentAt, String actor) {
        Map<String, AttributeValue> signal = new HashMap<>();
        signal.put(RUN, s(runId));
        signal.put(ID, n(id));
        signal.put(NAME, s(name));
        signal.put(PAYLOAD, s(payload.json()));
        if (payload.type() != null) {
            signal.put(PAYLOAD_TYPE, s(payload.type()));
        }
        signal.put(SENT_AT, n(sentAt));
        if (actor != null) {
            signal.put(ACTOR, s(actor));
        }
        return signal;
    }

    /** A signal key's item: the run took the signal {@code id} with {@code key}. */
    static Map<String, AttributeValue> keyItem(String runId, String key, long id) {
        return Map.of(RUN, s(runId), KEY, s(key), ID, n(id));
    }

    /** The id of the signal the run took with {@code key}, or null (a consistent read). */
    Long firstWithKey(String runId, String key) {
        var response = AwsFailures.call(
                "reading a signal key of run " + runId,
                () -> store.dynamo.getItem(b -> b.tableName(store.tables.signalKeys())
                        .consistentRead(true)
                        .key(Map.of(RUN, s(runId), KEY, s(key)))));
        return response.hasItem() && !response.item().isEmpty()
                ? Long.valueOf(response.item().get(ID).n())
                : null;
    }

    private Map<String, AttributeValue> checkedRun(String runId) {
        Map<String, AttributeValue> item = store.run(runId);
        if (item == null) {
            throw new RunNotFoundException(runId);
        }
        RunStatus status = RunItem.status(item);
        if (status.isTerminal()) {
            throw new RunFinishedException(runId, status, "signal");
        }
        return item;
    }

    /** The condition that the run has not finished. */
    static void notFinished(Update u) {
        RunItem.finished(u, true);
    }

    private long nextId(String runId) {
        Long id = reserve(runId, 1);
        if (id == null) {
            checkedRun(runId); // throws not-found or finished
            throw new IllegalStateException("run " + runId + " refused a signal number but exists and is not finished");
        }
        return id;
    }

    /**
     * Takes {@code count} signal ids from the run's counter at once (an atomic ADD: concurrent takers never wait for
     * one another, and ids a failed write took are only a gap).
     *
     * @return the last of them, or null when the run does not exist or has finished
     */
    Long reserve(String runId, long count) {
        Update u = new Update(store.tables.runs(), RunItem.key(runId))
                .add(RunItem.SIGNAL_SEQ, n(count))
                .when("attribute_exists(#" + RunItem.ID + ")");
        notFinished(u);
        try {
            var response = AwsFailures.call(
                    "numbering signals of run " + runId,
                    () -> store.dynamo.updateItem(u.request().toBuilder()
                            .returnValues(ReturnValue.UPDATED_NEW)
                            .build()));
            return Long.parseLong(response.attributes().get(RunItem.SIGNAL_SEQ).n());
        } catch (ConditionalCheckFailedException e) {
            return null;
        }
    }

    @Override
    public List<PendingSignal> pending(String runId) {
        Map<String, AttributeValue> run = store.run(runId);
        if (run == null) {
            return List.of();
        }
        if (carry.rollForward(runId, run)) {
            run = store.run(runId);
        }
        return stored(runId, run);
    }

    /** The run's signals not consumed, in arrival order, as its item {@code run} (read before) lists consumed ones. */
    List<PendingSignal> stored(String runId, Map<String, AttributeValue> run) {
        Set<Long> consumed = new HashSet<>();
        AttributeValue cs = run.get(RunItem.CONSUMED);
        if (cs != null && cs.hasNs()) {
            cs.ns().forEach(v -> consumed.add(Long.parseLong(v)));
        }
        List<PendingSignal> out = new ArrayList<>();
        for (Map<String, AttributeValue> item : partition(store.tables.signals(), runId, null, "signals")) {
            long id = Long.parseLong(item.get(ID).n());
            if (!consumed.contains(id)) {
                out.add(new PendingSignal(
                        id,
                        runId,
                        str(item, NAME),
                        new Payload(str(item, PAYLOAD), str(item, PAYLOAD_TYPE)),
                        Attrs.instant(item, SENT_AT),
                        str(item, ACTOR)));
            }
        }
        return out;
    }

    /** The keys the run took its signals with, by signal id (those of consumed signals too). */
    Map<Long, String> keys(String runId) {
        Map<Long, String> out = new HashMap<>();
        for (Map<String, AttributeValue> item : partition(store.tables.signalKeys(), runId, null, "signal keys")) {
            if (item.containsKey(ID)) { // not a revoked URL's
                out.put(Long.parseLong(item.get(ID).n()), str(item, KEY));
            }
        }
        return out;
    }

    /**
     * One transaction: the revocation's item, put where none is (the first revocation stays), and a check that the run
     * exists and no purge has claimed it, so that no revocation outlives its run (a run being purged is refused as
     * unknown). The time is the world's clock, read once: a retry after a conflict keeps it.
     */
    @Override
    public void revokeUrl(String runId, String tokenId, String actor) {
        Objects.requireNonNull(runId, "runId");
        RevokedUrl.checkTokenId(tokenId);
        Map<String, AttributeValue> revocation = new HashMap<>();
        revocation.put(RUN, s(runId));
        revocation.put(KEY, s(REVOKED + tokenId));
        revocation.put(SENT_AT, n(store.nowMicros()));
        if (actor != null) {
            revocation.put(ACTOR, s(actor));
        }
        List<TransactWriteItem> items = List.of(
                TransactWriteItem.builder()
                        .conditionCheck(ConditionCheck.builder()
                                .tableName(store.tables.runs())
                                .key(RunItem.key(runId))
                                .conditionExpression("attribute_exists(#id) AND attribute_not_exists(#c)")
                                .expressionAttributeNames(Map.of("#id", RunItem.ID, "#c", DynamoPurge.CLAIM))
                                .build())
                        .build(),
                TransactWriteItem.builder()
                        .put(Put.builder()
                                .tableName(store.tables.signalKeys())
                                .item(revocation)
                                .conditionExpression("attribute_not_exists(#r)")
                                .expressionAttributeNames(Map.of("#r", RUN))
                                .build())
                        .build());
        for (int attempt = 1; ; attempt++) {
            try {
                AwsFailures.run(
                        "revoking a signal URL of run " + runId,
                        () -> store.dynamo.transactWriteItems(b -> b.transactItems(items)));
                return;
            } catch (TransactionCanceledException e) {
                List<String> codes = e.cancellationReasons().stream()
                        .map(CancellationReason::code)
                        .toList();
                if (!codes.isEmpty() && "ConditionalCheckFailed".equals(codes.get(0))) {
                    throw new RunNotFoundException(runId);
                }
                if (codes.size() > 1 && "ConditionalCheckFailed".equals(codes.get(1))) {
                    return; // revoked before: the first revocation stays
                }
                if (attempt >= Store.MAX_RACES) {
                    throw Store.tooManyRaces("revoking a signal URL of run " + runId);
                }
                Store.backoff(attempt);
            }
        }
    }

    /** A consistent query of the run's revocations only, its signals' keys left unread. */
    @Override
    public List<RevokedUrl> revokedUrls(String runId) {
        Objects.requireNonNull(runId, "runId");
        List<RevokedUrl> out = new ArrayList<>();
        for (Map<String, AttributeValue> item :
                partition(store.tables.signalKeys(), runId, REVOKED, "revoked signal URLs")) {
            out.add(new RevokedUrl(
                    str(item, KEY).substring(REVOKED.length()), Attrs.instant(item, SENT_AT), str(item, ACTOR)));
        }
        out.sort(Comparator.comparing(RevokedUrl::revokedAt).thenComparing(RevokedUrl::tokenId));
        return out;
    }

    /**
     * Every item of the run in a table keyed by run, or those whose {@value #KEY} begins with {@code keyPrefix} when it
     * is not null, in key order (a consistent query).
     */
    private List<Map<String, AttributeValue>> partition(String table, String runId, String keyPrefix, String what) {
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        Map<String, String> names = keyPrefix == null ? Map.of("#r", RUN) : Map.of("#r", RUN, "#k", KEY);
        Map<String, AttributeValue> values =
                keyPrefix == null ? Map.of(":r", s(runId)) : Map.of(":r", s(runId), ":k", s(keyPrefix));
        String condition = keyPrefix == null ? "#r = :r" : "#r = :r AND begins_with(#k, :k)";
        do {
            Map<String, AttributeValue> exclusiveStart = start;
            QueryResponse page = AwsFailures.call(
                    "reading the " + what + " of run " + runId,
                    () -> store.dynamo.query(b -> b.tableName(table)
                            .consistentRead(true)
                            .keyConditionExpression(condition)
                            .expressionAttributeNames(names)
                            .expressionAttributeValues(values)
                            .exclusiveStartKey(exclusiveStart)));
            out.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return out;
    }
}
