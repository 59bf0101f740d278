package io.worldflow.world.aws.internal;

import io.worldflow.RunInfo;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.spi.RunCursor;
import io.worldflow.spi.RunQueries;
import io.worldflow.spi.SearchValues;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

import static io.worldflow.world.aws.internal.Attrs.micros;
import static io.worldflow.world.aws.internal.Attrs.s;
import static io.worldflow.world.aws.internal.Attrs.str;

/**
 * Lists runs newest first from the runs table's indexes, all sorted by {@code ck} = creation time and id:
 * {@code byParent} when a parent is given, else {@code byWorkflow} when a workflow is given, else
 * {@code byStatus} (one partition per status asked for, merged) when statuses are given, else {@code byCreated}.
 * The creation range and the cursor bound the key; the other filters (id prefix, status within a workflow or a
 * parent's children, workflow among a parent's children) are applied in Java, literally. Held runs are listed
 * from {@code byHeld}, a sparse index that holds only them (few: each waits for a deploy); runs not held are the
 * others less those, and the held children of a parent are its children among those. The indexes project only
 * workflow, status and creation time, so counting reads the index alone and a page's runs are then read in full
 * from the table ({@code BatchGetItem}, consistent).
 *
 * <p>A query by search attributes reads the partition of its first attribute's value in the search table's index
 * {@code byValue} (sorted by {@code ck} too, bounded the same way) instead, and a query by queue or update time the
 * index it would read without them; the runs found are then read in full, in batches, and every filter is applied to
 * their items ({@link #readsRuns}): the index may show a value a run no longer has, its item never does.
 */
final class DynamoRunQueries implements RunQueries {

    private static final String LOWEST = "0";
    private static final String HIGHEST = "9~";

    private final Store store;
    private final DynamoEventLog log;

    DynamoRunQueries(Store store, DynamoEventLog log) {
        this.store = store;
        this.log = log;
    }

    @Override
    public Optional<RunInfo> get(String runId) {
        Map<String, AttributeValue> item = store.run(runId);
        return item == null ? Optional.empty() : Optional.of(log.info(item));
    }

    /**
     * Whether the query filters by what only a run's item tells (search attributes, queue, update time): its runs are
     * then read in full as they are found, and kept when their items match every filter.
     */
    static boolean readsRuns(RunQuery query) {
        return !query.attributes().isEmpty()
                || query.queue() != null
                || query.updatedAfter() != null
                || query.updatedBefore() != null;
    }

    @Override
    public RunPage list(RunQuery query) {
        String upper = query.createdBefore() == null ? HIGHEST : Attrs.pad(micros(query.createdBefore()));
        if (query.cursor() != null) {
            RunCursor c = RunCursor.decode(query.cursor());
            String cursorKey = Attrs.timeKey(c.createdAtMicros(), c.runId());
            if (cursorKey.compareTo(upper) < 0) {
                upper = cursorKey;
            }
        }
        boolean full = readsRuns(query);
        Iterator<Map<String, AttributeValue>> runs = full
                ? matchingRuns(query, upper, Math.min(RunBatches.MAX, query.limit() + 1))
                : matching(query, upper, query.statuses(), heldFilter(query, upper));
        List<Map<String, AttributeValue>> page = new ArrayList<>();
        while (page.size() <= query.limit() && runs.hasNext()) {
            page.add(runs.next());
        }
        String next = null;
        if (page.size() > query.limit()) {
            page = page.subList(0, query.limit());
            Map<String, AttributeValue> last = page.getLast();
            next = new RunCursor(Attrs.num(last, RunItem.CREATED, 0), str(last, RunItem.ID)).encode();
        }
        // the index holds keys, workflow and status; the page's runs are read in full, consistently (unless they were)
        List<Map<String, AttributeValue>> items = full
                ? page
                : store.runs(page.stream().map(item -> str(item, RunItem.ID)).toList());
        return new RunPage(items.stream().map(log::info).toList(), next);
    }

    @Override
    public Map<RunStatus, Long> countByStatus(RunQuery query) {
        Map<RunStatus, Long> counts = new EnumMap<>(RunStatus.class);
        String upper = query.createdBefore() == null ? HIGHEST : Attrs.pad(micros(query.createdBefore()));
        if (readsRuns(query)) {
            // one pass over the runs found, each counted by the status its item has
            for (RunStatus status : RunStatus.values()) {
                counts.put(status, 0L);
            }
            for (Iterator<Map<String, AttributeValue>> it = matchingRuns(query.withStatuses(), upper, RunBatches.MAX);
                    it.hasNext(); ) {
                counts.merge(RunItem.status(it.next()), 1L, Long::sum);
            }
            return counts;
        }
        Predicate<String> held = heldFilter(query, upper);
        for (RunStatus status : RunStatus.values()) {
            long n = 0;
            for (Iterator<Map<String, AttributeValue>> it =
                            matching(query.withStatuses(status), upper, Set.of(status), held);
                    it.hasNext();
                    it.next()) {
                n++;
            }
            counts.put(status, n);
        }
        return counts;
    }

    /**
     * Which run ids pass the query's held filter when the index scanned does not tell (it projects no hold): the
     * ids of the held runs in the creation range are read from {@code byHeld} (few), and a run is held when it is
     * among them. No filter, or a scan of {@code byHeld} itself, lets every run pass.
     */
    private Predicate<String> heldFilter(RunQuery query, String upper) {
        if (query.held() == null || (query.held() && query.parent() == null)) {
            return id -> true;
        }
        Set<String> ids = new HashSet<>();
        for (Iterator<Map<String, AttributeValue>> held = heldScan(lower(query), upper); held.hasNext(); ) {
            ids.add(str(held.next(), RunItem.ID));
        }
        return query.held() ? ids::contains : id -> !ids.contains(id);
    }

    private static String lower(RunQuery query) {
        return query.createdAfter() == null ? LOWEST : Attrs.pad(micros(query.createdAfter()));
    }

    /**
     * The runs matching the query's filters below {@code upper} (exclusive), newest first, whose ids pass
     * {@code held}. Given a parent, its partition of {@code byParent} is the one read, whatever the other
     * filters: it holds only the runs that one run started.
     */
    private Iterator<Map<String, AttributeValue>> matching(
            RunQuery query, String upper, Set<RunStatus> statuses, Predicate<String> held) {
        String lower = lower(query);
        List<IndexScan> sources = new ArrayList<>();
        if (query.parent() != null) {
            // one partition per parent, never shared by many runs' parents: not sharded
            sources.add(
                    new IndexScan(store.tables.runs(), Tables.BY_PARENT, RunItem.PARENT, query.parent(), lower, upper));
        } else if (Boolean.TRUE.equals(query.held())) {
            sources.addAll(runsIndex(Tables.BY_HELD, RunItem.HELD_KEY, RunItem.HELD_KEY_VALUE, lower, upper));
        } else if (query.workflow() != null) {
            sources.addAll(runsIndex(Tables.BY_WORKFLOW, RunItem.WORKFLOW, query.workflow(), lower, upper));
        } else if (!statuses.isEmpty()) {
            for (RunStatus status : statuses) {
                sources.addAll(runsIndex(Tables.BY_STATUS, RunItem.STATUS, status.name(), lower, upper));
            }
        } else {
            sources.addAll(runsIndex(Tables.BY_CREATED, RunItem.ALL, RunItem.ALL_VALUE, lower, upper));
        }
        Iterator<Map<String, AttributeValue>> merged = merge(sources);
        return new Filtered(
                merged,
                item -> (query.idPrefix() == null || str(item, RunItem.ID).startsWith(query.idPrefix()))
                        && (statuses.isEmpty() || statuses.contains(RunItem.status(item)))
                        && (query.workflow() == null || query.workflow().equals(RunItem.workflow(item)))
                        && held.test(str(item, RunItem.ID)));
    }

    private Iterator<Map<String, AttributeValue>> heldScan(String lower, String upper) {
        return merge(runsIndex(Tables.BY_HELD, RunItem.HELD_KEY, RunItem.HELD_KEY_VALUE, lower, upper));
    }

    /** A scan of each shard of the partition {@code hashValue} of a runs table index ({@link Shards}). */
    private List<IndexScan> runsIndex(String index, String hashName, String hashValue, String lower, String upper) {
        return store.shards.keys(hashValue).stream()
                .map(key -> new IndexScan(store.tables.runs(), index, hashName, key, lower, upper))
                .toList();
    }

    private static Iterator<Map<String, AttributeValue>> merge(List<IndexScan> sources) {
        return sources.size() == 1 ? sources.getFirst() : new Merge(sources);
    }

    /**
     * The items of the runs matching every filter of the query below {@code upper} (exclusive), newest first ({@link
     * #readsRuns}), read {@code batch} at a time. Found through the partition of the first search attribute's value in
     * {@code byValue} when the query has attributes, else as {@link #matching} finds them (with what the index tells
     * of status, workflow and id); every filter is then checked on the run's item.
     */
    private Iterator<Map<String, AttributeValue>> matchingRuns(RunQuery query, String upper, int batch) {
        Map<String, String> wanted = SearchValues.encode(query.attributes());
        Iterator<Map<String, AttributeValue>> found;
        if (wanted.isEmpty()) {
            found = matching(query, upper, query.statuses(), id -> true);
        } else {
            Map.Entry<String, String> first = wanted.entrySet().iterator().next();
            found = merge(SearchIndex.keys(first.getKey(), first.getValue(), store.shards).stream()
                    .map(key -> new IndexScan(
                            store.tables.search(), Tables.BY_VALUE, SearchIndex.KEY, key, lower(query), upper))
                    .toList());
        }
        return new Filtered(new RunBatches(found, batch), item -> matches(query, wanted, item));
    }

    /** Whether a run's item matches every filter of the query but the creation range, which bounds the scans. */
    private static boolean matches(RunQuery query, Map<String, String> wanted, Map<String, AttributeValue> item) {
        Instant updated = Attrs.instant(item, RunItem.UPDATED);
        return (query.idPrefix() == null || str(item, RunItem.ID).startsWith(query.idPrefix()))
                && (query.statuses().isEmpty() || query.statuses().contains(RunItem.status(item)))
                && (query.workflow() == null || query.workflow().equals(RunItem.workflow(item)))
                && (query.held() == null || query.held() == item.containsKey(RunItem.HELD))
                && (query.parent() == null || query.parent().equals(str(item, RunItem.PARENT)))
                && (query.queue() == null || query.queue().equals(str(item, RunItem.QUEUE)))
                && (query.updatedAfter() == null || (updated != null && !updated.isBefore(query.updatedAfter())))
                && (query.updatedBefore() == null || (updated != null && updated.isBefore(query.updatedBefore())))
                && SearchIndex.has(item, wanted);
    }

    /**
     * The items of the runs an index scan finds, in its order, read {@code batch} at a time ({@code BatchGetItem},
     * consistent). A run gone since, or an entry whose creation key is not its run's (left by an earlier run of that
     * id), is skipped.
     */
    private final class RunBatches implements Iterator<Map<String, AttributeValue>> {
        /** The most keys one {@code BatchGetItem} takes. */
        static final int MAX = 100;

        private final Iterator<Map<String, AttributeValue>> entries;
        private final int batch;
        private Iterator<Map<String, AttributeValue>> current =
                List.<Map<String, AttributeValue>>of().iterator();

        RunBatches(Iterator<Map<String, AttributeValue>> entries, int batch) {
            this.entries = entries;
            this.batch = batch;
        }

        @Override
        public boolean hasNext() {
            while (!current.hasNext() && entries.hasNext()) {
                List<Map<String, AttributeValue>> read = new ArrayList<>();
                while (read.size() < batch && entries.hasNext()) {
                    read.add(entries.next());
                }
                List<String> ids = read.stream().map(RunBatches::runId).toList();
                Map<String, Map<String, AttributeValue>> items = new HashMap<>();
                for (Map<String, AttributeValue> item : store.runs(ids)) {
                    items.put(str(item, RunItem.ID), item);
                }
                List<Map<String, AttributeValue>> out = new ArrayList<>();
                for (Map<String, AttributeValue> entry : read) {
                    Map<String, AttributeValue> item = items.get(runId(entry));
                    if (item != null
                            && Objects.equals(str(item, RunItem.CREATED_KEY), str(entry, RunItem.CREATED_KEY))) {
                        out.add(item);
                    }
                }
                current = out.iterator();
            }
            return current.hasNext();
        }

        @Override
        public Map<String, AttributeValue> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return current.next();
        }

        /** The run an entry of a runs table index or of {@code byValue} stands for. */
        private static String runId(Map<String, AttributeValue> entry) {
            String id = str(entry, RunItem.ID);
            return id != null ? id : str(entry, SearchIndex.RUN);
        }
    }

    /** One index partition, newest first, paged lazily, with {@code ck} in [lower, upper). */
    private final class IndexScan implements Iterator<Map<String, AttributeValue>> {
        private final String table;
        private final String index;
        private final String hashName;
        private final String hashValue;
        private final String lower;
        private final String upper;
        private Iterator<Map<String, AttributeValue>> current =
                List.<Map<String, AttributeValue>>of().iterator();
        private Map<String, AttributeValue> startKey;
        private boolean exhausted;
        private Map<String, AttributeValue> peeked;

        IndexScan(String table, String index, String hashName, String hashValue, String lower, String upper) {
            this.table = table;
            this.index = index;
            this.hashName = hashName;
            this.hashValue = hashValue;
            this.lower = lower;
            this.upper = upper;
        }

        @Override
        public boolean hasNext() {
            while (peeked == null) {
                if (current.hasNext()) {
                    Map<String, AttributeValue> item = current.next();
                    if (!str(item, RunItem.CREATED_KEY).equals(upper)) {
                        peeked = item;
                    }
                    continue;
                }
                if (exhausted || lower.compareTo(upper) > 0) {
                    return false;
                }
                Map<String, AttributeValue> start = startKey;
                QueryResponse page = AwsFailures.call(
                        "listing runs",
                        () -> store.dynamo.query(QueryRequest.builder()
                                .tableName(table)
                                .indexName(index)
                                .scanIndexForward(false)
                                .keyConditionExpression("#h = :h AND #k BETWEEN :lo AND :hi")
                                .expressionAttributeNames(Map.of("#h", hashName, "#k", RunItem.CREATED_KEY))
                                .expressionAttributeValues(Map.of(":h", s(hashValue), ":lo", s(lower), ":hi", s(upper)))
                                .exclusiveStartKey(start)
                                .limit(200)
                                .build()));
                current = page.items().iterator();
                startKey =
                        page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
                                ? page.lastEvaluatedKey()
                                : null;
                exhausted = startKey == null;
            }
            return true;
        }

        Map<String, AttributeValue> peek() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return peeked;
        }

        @Override
        public Map<String, AttributeValue> next() {
            Map<String, AttributeValue> item = peek();
            peeked = null;
            return item;
        }
    }

    /** Merges newest-first sources into one newest-first stream. */
    private static final class Merge implements Iterator<Map<String, AttributeValue>> {
        private final List<IndexScan> sources;

        Merge(List<IndexScan> sources) {
            this.sources = sources;
        }

        @Override
        public boolean hasNext() {
            return sources.stream().anyMatch(IndexScan::hasNext);
        }

        @Override
        public Map<String, AttributeValue> next() {
            IndexScan best = null;
            for (IndexScan s : sources) {
                if (s.hasNext()
                        && (best == null
                                || str(s.peek(), RunItem.CREATED_KEY).compareTo(str(best.peek(), RunItem.CREATED_KEY))
                                        > 0)) {
                    best = s;
                }
            }
            if (best == null) {
                throw new NoSuchElementException();
            }
            return best.next();
        }
    }

    private static final class Filtered implements Iterator<Map<String, AttributeValue>> {
        private final Iterator<Map<String, AttributeValue>> source;
        private final Predicate<Map<String, AttributeValue>> keep;
        private Map<String, AttributeValue> peeked;

        Filtered(Iterator<Map<String, AttributeValue>> source, Predicate<Map<String, AttributeValue>> keep) {
            this.source = source;
            this.keep = keep;
        }

        @Override
        public boolean hasNext() {
            while (peeked == null && source.hasNext()) {
                Map<String, AttributeValue> item = source.next();
                if (keep.test(item)) {
                    peeked = item;
                }
            }
            return peeked != null;
        }

        @Override
        public Map<String, AttributeValue> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Map<String, AttributeValue> item = peeked;
            peeked = null;
            return item;
        }
    }
}
