package io.worldflow.world.aws.internal;

import io.worldflow.RunInfo;
import io.worldflow.event.Event;
import io.worldflow.spi.LoadedRun;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads the runs a worker has just leased, each with its whole log ({@code WorkerAccess#load}): the items a lease of
 * this process returned, while nothing this process wrote has changed those runs since ({@link
 * HeldTurns#takeLeasedItem}), and the others read together ({@code BatchGetItem}); then each run's pages up to the
 * length its item states, runs side by side. A log whose records do not reach that length (pages of a commit not all
 * visible yet) is read again a few times, then taken as found: an append over it is refused as a conflict.
 */
final class LeasedLoads {

    /** Reads of a log whose records do not reach its length before it is taken as it is. */
    private static final int READS = 3;

    private final Store store;

    LeasedLoads(Store store) {
        this.store = store;
    }

    Map<String, LoadedRun> load(Collection<String> runIds) {
        List<String> ids = runIds.stream().distinct().toList();
        Map<String, Map<String, AttributeValue>> items = new HashMap<>();
        List<String> unread = new ArrayList<>();
        for (String runId : ids) {
            Map<String, AttributeValue> item = store.held.takeLeasedItem(runId);
            if (item != null) {
                items.put(runId, item);
            } else {
                unread.add(runId);
            }
        }
        for (Map<String, AttributeValue> item : store.runs(unread)) {
            items.put(Attrs.str(item, RunItem.ID), item);
        }
        Map<String, LoadedRun> loaded = new ConcurrentHashMap<>();
        Store.eachAtOnce(items.values(), item -> loaded.put(Attrs.str(item, RunItem.ID), load(item)), "loading runs");
        Map<String, LoadedRun> out = new LinkedHashMap<>();
        for (String runId : ids) {
            LoadedRun run = loaded.get(runId);
            if (run != null) {
                out.put(runId, run);
            }
        }
        return out;
    }

    /** The run whose item is {@code item}, with its log up to the length the item states. */
    private LoadedRun load(Map<String, AttributeValue> item) {
        String runId = Attrs.str(item, RunItem.ID);
        long length = RunItem.length(item);
        List<Event> events = store.events(runId, length);
        for (int read = 1; events.size() < length && read < READS; read++) {
            Store.backoff(read);
            events = store.events(runId, length);
        }
        List<Event> log = events;
        // a payload too large for the item is in the log just read
        RunInfo info = RunItem.info(
                item,
                store.codec,
                seq -> seq < log.size() && log.get((int) seq).seq() == seq
                        ? Store.payload(log.get((int) seq))
                        : store.payloadAt(runId, seq));
        return new LoadedRun(info, log);
    }
}
