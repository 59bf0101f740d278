package io.worldflow.world.aws.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.worldflow.world.aws.internal.Attrs.n;
import static io.worldflow.world.aws.internal.Attrs.s;

/**
 * Deletes consumed signals after the append that consumed them. The append itself only adds their ids to
 * the run's consumed set (one item in its transaction, however many signals), which already hides them
 * from {@code pending}; this removes the items and then the ids. A crash in between leaves hidden items.
 */
final class SignalCleanup {

    private static final Logger log = LoggerFactory.getLogger(SignalCleanup.class);

    private final Store store;

    SignalCleanup(Store store) {
        this.store = store;
    }

    void consumed(String runId, List<Long> ids) {
        try {
            for (int from = 0; from < ids.size(); from += 25) {
                List<WriteRequest> deletes = new ArrayList<>();
                for (Long id : ids.subList(from, Math.min(ids.size(), from + 25))) {
                    deletes.add(WriteRequest.builder()
                            .deleteRequest(DeleteRequest.builder()
                                    .key(Map.of(DynamoSignals.RUN, s(runId), DynamoSignals.ID, n(id)))
                                    .build())
                            .build());
                }
                Map<String, List<WriteRequest>> pending = Map.of(store.tables.signals(), deletes);
                for (int round = 0; !pending.isEmpty() && round < 10; round++) {
                    Map<String, List<WriteRequest>> request = pending;
                    pending = store.dynamo
                            .batchWriteItem(b -> b.requestItems(request))
                            .unprocessedItems();
                }
            }
            Update u = new Update(store.tables.runs(), RunItem.key(runId))
                    .delete(
                            RunItem.CONSUMED,
                            AttributeValue.fromNs(
                                    ids.stream().map(String::valueOf).toList()));
            store.dynamo.updateItem(u.request());
        } catch (RuntimeException e) {
            log.warn(
                    "could not clean up consumed signals {} of run {} (they stay hidden): {}",
                    ids,
                    runId,
                    e.toString());
        }
    }
}
