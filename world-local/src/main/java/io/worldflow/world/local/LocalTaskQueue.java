package io.worldflow.world.local;

import io.worldflow.spi.DueNotifier;
import io.worldflow.spi.Lease;
import io.worldflow.world.jdbc.Failures;
import io.worldflow.world.jdbc.JdbcTaskQueue;
import io.worldflow.world.jdbc.Micros;
import io.worldflow.world.jdbc.Sql;
import io.worldflow.world.jdbc.SqlWork;
import io.worldflow.world.jdbc.Tx;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/** Turns in the {@code tasks} table, leased in write transactions; wake-ups pushed in process. */
final class LocalTaskQueue extends JdbcTaskQueue {

    /** The next priority level below {@code :below} that has an unleased turn: one step down {@code tasks_fresh}. */
    private static final Sql NEXT_LEVEL = Sql.of("""
            SELECT priority FROM tasks INDEXED BY tasks_fresh
            WHERE queue = :queue AND lease_expires IS NULL AND priority < :below
            ORDER BY priority DESC LIMIT 1""");
    /** The earliest unleased turns of a queue at one priority, due by {@code :dueBy}, in leasing order. */
    private static final Sql FRESH = Sql.of("""
            SELECT run_id, priority, available_at FROM tasks INDEXED BY tasks_fresh
            WHERE queue = :queue AND lease_expires IS NULL AND priority = :priority AND available_at <= :dueBy
            ORDER BY available_at, run_id LIMIT :max""");
    /** The best turns of a queue whose lease lapsed and that are due (few: turns in flight). */
    private static final Sql LAPSED = Sql.of("""
            SELECT run_id, priority, available_at FROM tasks
            WHERE queue = :queue AND lease_expires IS NOT NULL AND lease_expires <= :now AND available_at <= :dueBy
            ORDER BY priority DESC, available_at, run_id LIMIT :max""");
    /**
     * Leases the chosen rows ({@code %s}: their ids). A turn requested before now is covered by the new lease; one
     * requested for later is kept.
     */
    private static final String CLAIM = """
            UPDATE tasks SET
                lease_token = lower(hex(randomblob(16))), lease_owner = :owner, lease_expires = :expires,
                deliveries = deliveries + 1,
                requested_at = CASE WHEN requested_at <= :now THEN NULL ELSE requested_at END
            WHERE run_id IN (%s)
            RETURNING run_id, lease_token, queue, lease_expires, deliveries, priority, available_at""";

    private static final Sql EXTEND = Sql.of("""
            UPDATE tasks SET lease_expires = :expires WHERE run_id = :runId AND lease_token = :token
            RETURNING queue, deliveries""");
    private static final Sql RELEASE = Sql.of("""
            UPDATE tasks SET available_at = :now, requested_at = NULL, lease_token = NULL, lease_owner = NULL,
                lease_expires = NULL
            WHERE run_id = :runId AND lease_token = :token""");
    /** A queue's earliest unleased turn, and its earliest leased one, due again when its lease expires. */
    private static final Sql NEXT_DUE = Sql.of("""
            SELECT MIN(
                COALESCE((SELECT available_at FROM tasks WHERE queue = :queue AND lease_expires IS NULL
                          ORDER BY available_at LIMIT 1), 9223372036854775807),
                COALESCE((SELECT MIN(MAX(available_at, lease_expires)) FROM tasks
                          WHERE queue = :queue AND lease_expires IS NOT NULL), 9223372036854775807))""");

    private final Database database;
    private final DueNotifier notifier;

    LocalTaskQueue(Database db, InstantSource clock, DueNotifier notifier) {
        super(db, clock, EXTEND);
        this.database = db;
        this.notifier = notifier;
    }

    @Override
    public List<Lease> lease(String workerId, Set<String> queues, int max, Duration leaseFor, Duration lookahead) {
        if (!wants(workerId, queues, max, leaseFor, lookahead)) {
            return List.of();
        }
        List<Leased> leased = writeLease("lease", null, tx -> {
            Instant now = clock.instant();
            long dueBy = Micros.of(now.plus(lookahead));
            List<Turn> candidates = new ArrayList<>();
            for (String queue : queues) {
                fresh(tx, queue, dueBy, max, candidates);
                candidates(
                        tx.call(LAPSED)
                                .set("queue", queue)
                                .set("now", Micros.of(now))
                                .set("dueBy", dueBy)
                                .set("max", max),
                        candidates);
            }
            if (candidates.isEmpty()) {
                return List.of();
            }
            candidates.sort(Turn.ORDER);
            List<Turn> chosen = candidates.subList(0, Math.min(max, candidates.size()));
            StringBuilder ids = new StringBuilder();
            for (int i = 0; i < chosen.size(); i++) {
                ids.append(i == 0 ? ":id" : ", :id").append(i);
            }
            Sql.Call claim = tx.call(Sql.of(CLAIM.formatted(ids)));
            for (int i = 0; i < chosen.size(); i++) {
                claim.set("id" + i, chosen.get(i).runId());
            }
            return claim.set("owner", workerId)
                    .set("expires", Micros.of(now.plus(leaseFor)))
                    .set("now", Micros.of(now))
                    .list(Leased::read);
        });
        return Leased.inOrder(leased);
    }

    /**
     * Adds up to {@code max} unleased turns of {@code queue} due by {@code dueBy}, level by level from the
     * highest priority down, each level read in due order from the index: the cost follows the turns taken
     * and the levels passed, not the number of due turns.
     */
    private static void fresh(Tx tx, String queue, long dueBy, int max, List<Turn> out) throws SQLException {
        long below = Long.MAX_VALUE;
        int found = 0;
        while (found < max) {
            Optional<Integer> level =
                    tx.call(NEXT_LEVEL).set("queue", queue).set("below", below).one(rs -> rs.getInt(1));
            if (level.isEmpty()) {
                return;
            }
            int priority = level.get();
            found += candidates(
                    tx.call(FRESH)
                            .set("queue", queue)
                            .set("priority", priority)
                            .set("dueBy", dueBy)
                            .set("max", max - found),
                    out);
            below = priority;
        }
    }

    /** Adds the turns {@code call} finds, not leased yet; how many. */
    private static int candidates(Sql.Call call, List<Turn> out) throws SQLException {
        List<Turn> found = call.list(rs -> new Turn(rs.getString(1), rs.getInt(2), rs.getLong(3)));
        out.addAll(found);
        return found.size();
    }

    /** Without waiting for the disk under {@code synchronous=FULL}: see {@link Database#writeLease}. */
    @Override
    protected <T> T writeLease(String operation, String subject, SqlWork<T> work) {
        return database.writeLease(operation, subject, work);
    }

    @Override
    public void release(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        db.write("release", Failures.run(lease.runId()), tx -> {
            Instant now = Micros.truncate(clock.instant());
            if (tx.call(RELEASE)
                            .set("now", Micros.of(now))
                            .set("runId", lease.runId())
                            .set("token", lease.token())
                            .update()
                    > 0) {
                tx.wakeAt(now);
            }
            return null;
        });
    }

    @Override
    public Optional<Instant> nextDue(Set<String> queues) {
        if (queues.isEmpty()) {
            return Optional.empty();
        }
        return db.read("next due", null, tx -> {
            long earliest = Long.MAX_VALUE;
            for (String queue : queues) {
                earliest = Math.min(
                        earliest,
                        tx.call(NEXT_DUE)
                                .set("queue", queue)
                                .one(rs -> rs.getLong(1))
                                .orElse(Long.MAX_VALUE));
            }
            return earliest == Long.MAX_VALUE ? Optional.empty() : Optional.of(Micros.toInstant(earliest));
        });
    }

    @Override
    public Subscription subscribe(Consumer<Instant> dueAt) {
        return notifier.subscribe(dueAt);
    }
}
