package io.worldflow.world.aws.internal;

import io.worldflow.RunStatus;
import io.worldflow.WorldException;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowContinuedAsNew;
import io.worldflow.spi.EventLog;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.worldflow.world.aws.internal.Attrs.micros;
import static io.worldflow.world.aws.internal.Attrs.n;
import static io.worldflow.world.aws.internal.Attrs.num;
import static io.worldflow.world.aws.internal.Attrs.s;
import static io.worldflow.world.aws.internal.Attrs.str;

/**
 * Deletes finished runs ({@link EventLog#purgeFinished}). DynamoDB cannot delete a run in one write: its log pages,
 * signals and signal keys are items of their own, more than a transaction takes for a long log. So each run is
 * deleted in three steps:
 * <ol>
 *   <li>It is claimed: a conditional update sets {@value #CLAIM} on its item while the item says the run finished
 *   before the cutoff and no live claim is there. From then on the run cannot be reopened (a reopen is conditioned on
 *   no claim), and no other purge works on it.</li>
 *   <li>Its log pages, signals, signal keys (its revoked signal URLs among them) and search attributes' items
 *   ({@link SearchIndex}) are deleted ({@code BatchWriteItem}, 25 at a time), and its ordering key's link while that
 *   names it ({@link KeyOrder#forget}); a revocation is refused from the claim on, so none is added behind it.</li>
 *   <li>Its item goes last, conditioned on still holding this claim, and so its entries in every index with it. Until
 *   then the id cannot be created again, so a new run never meets an old run's pages.</li>
 * </ol>
 * A purge that dies midway leaves its claim, which lapses after {@link #CLAIM_LAPSES}; the run still looks finished
 * and old, so a later purge claims it again and finishes the job.
 *
 * <p>A run that continued as new names its successor ({@link RunItem#SUCCESSOR}) and stays while that item is there,
 * so a chain goes newest first: its last run, then, by the {@link RunItem#CONTINUED_FROM} each successor names, the
 * run before it, back to the first, in the same call while the limit allows. A chain still running costs one more
 * read per run of it that each call passes over. A run that ended before items named their successor is read by its
 * log's last event instead, when it completed with no output, as a run that continued as new does.
 *
 * <p>Finished runs are found through {@code byStatus}, one partition per terminal status, oldest creation first, from
 * the runs created before the cutoff (a run finishes after it is created). The index does not hold {@code updatedAt},
 * so each candidate's item is read (consistently, 100 at a time) to see when it finished. A run created before the
 * cutoff that finished after it is read again by every call until it is old enough to go: the price of using the
 * listing index instead of one more index that every finishing run would write.
 */
final class DynamoPurge {

    /** The attribute of a run's item that a purge claims it with: the claim's time (padded micros), ':' and a UUID. */
    static final String CLAIM = "prg";

    /** How long a claim holds off other purges; past it, the purge that made it is taken to have died. */
    static final Duration CLAIM_LAPSES = Duration.ofMinutes(10);

    private static final List<RunStatus> FINISHED = List.of(RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.CANCELED);
    /** Index entries read per query page: one consistent BatchGetItem of the items behind them. */
    private static final int PAGE = 100;
    /** Rounds of a BatchWriteItem's unprocessed items before giving up for now (a later call resumes the run). */
    private static final int WRITE_ROUNDS = 10;

    private final Store store;
    private final KeyOrder keyOrder;

    DynamoPurge(Store store) {
        this.store = store;
        this.keyOrder = new KeyOrder(store);
    }

    int purge(Instant finishedBefore, int limit) {
        EventLog.checkPurge(finishedBefore, limit);
        long before = micros(finishedBefore);
        int deleted = 0;
        for (String status : FINISHED.stream()
                .flatMap(s -> store.shards.keys(s.name()).stream())
                .toList()) {
            Map<String, AttributeValue> start = null;
            do {
                if (deleted == limit) {
                    return deleted;
                }
                QueryResponse page = createdBefore(status, before, start);
                List<String> ids =
                        page.items().stream().map(item -> str(item, RunItem.ID)).toList();
                for (Map<String, AttributeValue> item : store.runs(ids)) {
                    // a chain goes newest first: a successor deleted, the run it continued is next
                    for (Map<String, AttributeValue> run = item;
                            run != null && deleted < limit && purgeable(run, before) && delete(run, before);
                            run = predecessor(run)) {
                        deleted++;
                    }
                }
                start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
                        ? page.lastEvaluatedKey()
                        : null;
            } while (start != null);
        }
        return deleted;
    }

    /** A page of the runs with this status key (a status in a shard) created before {@code before}, oldest first, ids only. */
    private QueryResponse createdBefore(String status, long before, Map<String, AttributeValue> start) {
        return AwsFailures.call(
                "finding finished runs",
                () -> store.dynamo.query(QueryRequest.builder()
                        .tableName(store.tables.runs())
                        .indexName(Tables.BY_STATUS)
                        .keyConditionExpression("#h = :h AND #k < :k")
                        .expressionAttributeNames(
                                Map.of("#h", RunItem.STATUS, "#k", RunItem.CREATED_KEY, "#id", RunItem.ID))
                        .expressionAttributeValues(Map.of(":h", s(status), ":k", s(Attrs.pad(before))))
                        .projectionExpression("#id")
                        .exclusiveStartKey(start)
                        .limit(PAGE)
                        .build()));
    }

    /** Whether the item, as read now (the index may lag), is of a run that finished before {@code before}. */
    private static boolean finishedBefore(Map<String, AttributeValue> item, long before) {
        return RunItem.status(item).isTerminal() && num(item, RunItem.UPDATED, Long.MAX_VALUE) < before;
    }

    /**
     * Whether the item, as read now, is of a run that may go: finished before {@code before}, held by no purge, and
     * not followed by a successor that is still there.
     */
    private boolean purgeable(Map<String, AttributeValue> item, long before) {
        if (!finishedBefore(item, before) || !unclaimed(item)) {
            return false;
        }
        String successor = successor(item);
        return successor == null || store.run(successor) == null;
    }

    /**
     * The run this one handed over to as it ended: named on its item, or, for a run that ended before items named it
     * (completed with no output), by the last event of its log.
     */
    private String successor(Map<String, AttributeValue> item) {
        String named = str(item, RunItem.SUCCESSOR);
        if (named != null
                || RunItem.status(item) != RunStatus.COMPLETED
                || item.containsKey(RunItem.OUTPUT)
                || item.containsKey(RunItem.OUTPUT_REF)) {
            return named;
        }
        String runId = str(item, RunItem.ID);
        List<Event> tail = store.events(runId, Math.max(0, num(item, RunItem.LENGTH, 1) - 1), false);
        return !tail.isEmpty() && tail.getLast() instanceof WorkflowContinuedAsNew c ? c.successorRunId() : null;
    }

    /** The item of the run that the deleted run continued, read now, or null when it had none or it is gone. */
    private Map<String, AttributeValue> predecessor(Map<String, AttributeValue> deleted) {
        String continued = str(deleted, RunItem.CONTINUED_FROM);
        return continued == null ? null : store.run(continued);
    }

    /** Whether no purge holds the run: no claim, or one that lapsed. */
    private boolean unclaimed(Map<String, AttributeValue> item) {
        String claim = str(item, CLAIM);
        return claim == null || claim.compareTo(lapsedBefore()) < 0;
    }

    /** Claims of this key or lower have lapsed. */
    private String lapsedBefore() {
        return Attrs.pad(store.nowMicros() - CLAIM_LAPSES.toNanos() / 1_000);
    }

    /** Deletes the run, as the class comment says; false when another writer changed or took it first. */
    private boolean delete(Map<String, AttributeValue> item, long before) {
        String runId = str(item, RunItem.ID);
        String claim = Attrs.pad(store.nowMicros()) + ":" + UUID.randomUUID();
        Update take = new Update(store.tables.runs(), RunItem.key(runId)).set(CLAIM, s(claim));
        RunItem.finished(take, false);
        take.when("#" + RunItem.UPDATED + " < ?", n(before))
                .when("attribute_not_exists(#" + CLAIM + ") OR #" + CLAIM + " < ?", s(lapsedBefore()));
        try {
            AwsFailures.call("claiming finished run " + runId, () -> store.dynamo.updateItem(take.request()));
        } catch (ConditionalCheckFailedException e) {
            return false; // reopened, or claimed by another purge, since it was read
        }
        deleteAll(store.tables.events(), runId, EventPages.RUN, EventPages.KEY);
        deleteAll(store.tables.signals(), runId, DynamoSignals.RUN, DynamoSignals.ID);
        deleteAll(store.tables.signalKeys(), runId, DynamoSignals.RUN, DynamoSignals.KEY);
        deleteAll(store.tables.search(), runId, SearchIndex.RUN, SearchIndex.KEY);
        keyOrder.forget(item);
        try {
            AwsFailures.call(
                    "deleting finished run " + runId,
                    () -> store.dynamo.deleteItem(b -> b.tableName(store.tables.runs())
                            .key(RunItem.key(runId))
                            .conditionExpression("#c = :c")
                            .expressionAttributeNames(Map.of("#c", CLAIM))
                            .expressionAttributeValues(Map.of(":c", s(claim)))));
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false; // this claim lapsed and another purge took the run over
        }
    }

    /** Deletes every item of the run in a table keyed ({@code hash} = run id, {@code range}). */
    private void deleteAll(String table, String runId, String hash, String range) {
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> exclusiveStart = start;
            QueryResponse page = AwsFailures.call(
                    "finding the items of run " + runId + " in " + table,
                    () -> store.dynamo.query(QueryRequest.builder()
                            .tableName(table)
                            .consistentRead(true)
                            .keyConditionExpression("#r = :r")
                            .expressionAttributeNames(Map.of("#r", hash, "#k", range))
                            .expressionAttributeValues(Map.of(":r", s(runId)))
                            .projectionExpression("#r, #k")
                            .exclusiveStartKey(exclusiveStart)
                            .build()));
            List<Map<String, AttributeValue>> keys = page.items();
            for (int from = 0; from < keys.size(); from += 25) {
                List<WriteRequest> deletes = new ArrayList<>();
                for (Map<String, AttributeValue> key : keys.subList(from, Math.min(keys.size(), from + 25))) {
                    deletes.add(WriteRequest.builder()
                            .deleteRequest(DeleteRequest.builder().key(key).build())
                            .build());
                }
                write(table, runId, deletes);
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
    }

    /** One BatchWriteItem, its unprocessed items sent again with a pause between rounds. */
    private void write(String table, String runId, List<WriteRequest> deletes) {
        Map<String, List<WriteRequest>> pending = Map.of(table, deletes);
        for (int round = 1; !pending.isEmpty(); round++) {
            if (round > WRITE_ROUNDS) {
                throw new WorldException(
                        "AWS world: deleting the items of finished run " + runId + " in " + table + " was throttled "
                                + WRITE_ROUNDS + " times; a later purge finishes it",
                        true,
                        null);
            }
            if (round > 1) {
                Store.backoff(round);
            }
            Map<String, List<WriteRequest>> request = pending;
            pending = AwsFailures.call(
                            "deleting the items of finished run " + runId,
                            () -> store.dynamo.batchWriteItem(b -> b.requestItems(request)))
                    .unprocessedItems();
        }
    }
}
