package io.worldflow.world.jdbc;

import io.worldflow.spi.Lease;
import io.worldflow.spi.LeasedRuns;
import io.worldflow.spi.TaskQueue;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Turns in the {@code tasks} table, one row per run at most: its pending or leased turn. A world adds how turns
 * are leased, extended, ended and found; what a request for a turn does, and the order leases are handed out in,
 * are written here once.
 */
public abstract class JdbcTaskQueue implements TaskQueue {

    protected final SqlDatabase db;
    protected final InstantSource clock;
    private final RunTarget.Reader targets;
    private final Sql extend;
    private final Sql waiting;
    private final Sql move;
    private final Sql moveLeased;

    /**
     * @param extend sets {@code lease_expires} to {@code :expires} on the row of {@code :runId} still leased with
     *               {@code :token}, returning its {@code queue} and {@code deliveries}
     */
    protected JdbcTaskQueue(SqlDatabase db, InstantSource clock, Sql extend) {
        this.db = db;
        this.clock = clock;
        this.targets = new RunTarget.Reader(db.dialect());
        this.extend = extend;
        SqlDialect d = db.dialect();
        this.waiting = Sql.of(d.tables("SELECT run_id, flow_key, priority, available_at FROM {tasks}"
                + " WHERE queue = :queue AND lease_token IS NULL ORDER BY priority DESC, available_at, run_id"
                + " LIMIT :limit"));
        this.move = Sql.of(d.tables("UPDATE {tasks} SET queue = :to, available_at = :at WHERE run_id"
                + d.inTexts(":ids") + " AND queue = :from AND lease_token IS NULL RETURNING run_id"));
        this.moveLeased = Sql.of(d.tables("UPDATE {tasks} SET queue = :to, available_at = :at, lease_token = "
                + d.newLeaseToken() + ", lease_owner = :owner, lease_expires = :expires, deliveries = deliveries + 1,"
                + " requested_at = CASE WHEN requested_at <= :now THEN NULL ELSE requested_at END WHERE run_id"
                + d.inTexts(":ids") + " AND queue = :from AND lease_token IS NULL"
                + " RETURNING run_id, lease_token, queue, lease_expires, deliveries, priority, available_at"));
    }

    /**
     * Runs {@code work}, which writes leases alone: its loss in a crash is harmless (a lost lease or extension is one
     * that lapsed, and every append's expected sequence fences off whoever still held it), so a world may commit it
     * without waiting for the disk.
     */
    protected abstract <T> T writeLease(String operation, String subject, SqlWork<T> work);

    @Override
    public final Optional<Lease> extend(Lease lease, Duration leaseFor) {
        Objects.requireNonNull(lease, "lease");
        TaskQueue.checkLease(leaseFor, null);
        return writeLease("extend lease", Failures.run(lease.runId()), tx -> {
            Instant expires = Micros.truncate(clock.instant().plus(leaseFor));
            return tx.call(extend)
                    .set("expires", Micros.of(expires))
                    .set("runId", lease.runId())
                    .set("token", lease.token())
                    .one(rs -> new Lease(lease.runId(), lease.token(), rs.getString(1), expires, rs.getInt(2)));
        });
    }

    @Override
    public final void complete(Lease lease, Instant wakeAt) {
        Objects.requireNonNull(lease, "lease");
        db.write("complete", Failures.run(lease.runId()), tx -> {
            db.dialect().endTurn(tx, lease, wakeAt);
            return null;
        });
    }

    /** Makes an unfinished run due at {@code at} (or keeps an earlier due time); a finished or unknown one is left. */
    @Override
    public void enqueue(String runId, Instant at) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(at, "at");
        db.write("enqueue", Failures.run(runId), tx -> {
            Optional<RunTarget> target = targets.find(tx, runId);
            if (target.isPresent() && !target.get().status().isTerminal()) {
                db.dialect()
                        .makeDue(tx, runId, target.get().queue(), target.get().priority(), at, clock.instant());
            }
            return null;
        });
    }

    @Override
    public final List<WaitingTurn> waiting(String queue, int limit) {
        Objects.requireNonNull(queue, "queue");
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive, was " + limit);
        }
        return db.read(
                "list waiting turns",
                queue,
                tx -> tx.call(waiting)
                        .set("queue", queue)
                        .set("limit", limit)
                        .list(rs ->
                                new WaitingTurn(rs.getString(1), rs.getString(2), rs.getInt(3), Micros.read(rs, 4))));
    }

    /** In one statement; the write's commit tells the listeners, as for any turn made due. */
    @Override
    public final Set<String> move(Collection<String> runIds, String from, String to, Instant at) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(at, "at");
        List<String> ids = List.copyOf(new LinkedHashSet<>(runIds));
        if (ids.isEmpty()) {
            return Set.of();
        }
        return db.write("move turns", ids.size() + " runs", tx -> moveAnnounced(tx, ids, from, to, at));
    }

    /** Moves the turns unleased, announcing them when any moved; returns the runs moved. */
    private Set<String> moveAnnounced(Tx tx, List<String> ids, String from, String to, Instant at) throws SQLException {
        Set<String> moved = new HashSet<>(tx.call(move)
                .set("to", to)
                .set("at", Micros.of(at))
                .set("ids", db.dialect().texts(ids))
                .set("from", from)
                .list(rs -> rs.getString(1)));
        if (!moved.isEmpty()) {
            tx.wakeAt(Micros.truncate(at));
        }
        return moved;
    }

    /**
     * Moves as {@link #move} does, and in the same write leases to {@code owner} the moved turns of the runs in
     * {@code toLease} when they are due by now ({@link io.worldflow.spi.WorkerAccess#moveLeasing}): only the turns
     * moved without a lease are announced.
     */
    public final LeasedRuns moveLeasing(
            Collection<String> runIds,
            String from,
            String to,
            Instant at,
            Set<String> toLease,
            String owner,
            Duration leaseFor) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(toLease, "toLease");
        Objects.requireNonNull(owner, "owner");
        TaskQueue.checkLease(leaseFor, null);
        Instant now = clock.instant();
        Set<String> ids = new LinkedHashSet<>(runIds);
        List<String> leasing = at.isAfter(now)
                ? List.of()
                : ids.stream().filter(toLease::contains).toList();
        if (leasing.isEmpty()) {
            move(ids, from, to, at);
            return new LeasedRuns(List.of(), Map.of());
        }
        leasing.forEach(ids::remove);
        List<String> plain = List.copyOf(ids);
        Instant expires = Micros.truncate(now.plus(leaseFor));
        List<Leased> leased = db.write("move turns", leasing.size() + plain.size() + " runs", tx -> {
            List<Leased> got = tx.call(moveLeased)
                    .set("to", to)
                    .set("at", Micros.of(at))
                    .set("owner", owner)
                    .set("expires", Micros.of(expires))
                    .set("now", Micros.of(now))
                    .set("ids", db.dialect().texts(leasing))
                    .set("from", from)
                    .list(Leased::read);
            if (!plain.isEmpty()) {
                moveAnnounced(tx, plain, from, to, at);
            }
            return got;
        });
        leasedByMove(leased.size());
        return new LeasedRuns(Leased.inOrder(leased), Map.of());
    }

    /** Notes {@code count} turns leased by {@link #moveLeasing}, as a world counts those its leases take. */
    protected void leasedByMove(int count) {}

    /** A turn with what orders it for leasing: highest priority first, then earliest due, then run id. */
    public record Turn(String runId, int priority, long availableAt) {

        public static final Comparator<Turn> ORDER = Comparator.comparingInt(Turn::priority)
                .reversed()
                .thenComparingLong(Turn::availableAt)
                .thenComparing(Turn::runId);
    }

    /** A lease and its turn. */
    public record Leased(Lease lease, Turn turn) {

        /**
         * The lease in a row of a lease statement: its {@code run_id, lease_token, queue, lease_expires, deliveries,
         * priority, available_at}.
         */
        public static Leased read(ResultSet rs) throws SQLException {
            String runId = rs.getString(1);
            return new Leased(
                    new Lease(runId, rs.getString(2), rs.getString(3), Micros.read(rs, 4), rs.getInt(5)),
                    new Turn(runId, rs.getInt(6), rs.getLong(7)));
        }

        /**
         * The leases in leasing order: a statement's {@code RETURNING} gives rows in no particular order, so a world
         * sorts what it leased.
         */
        public static List<Lease> inOrder(List<Leased> leased) {
            return leased.stream()
                    .sorted(Comparator.comparing(Leased::turn, Turn.ORDER))
                    .map(Leased::lease)
                    .toList();
        }
    }

    /**
     * Checks a lease request ({@link TaskQueue#lease}); false when it asks for no turn.
     *
     * @throws IllegalArgumentException as {@link TaskQueue#checkLease} says
     */
    protected static boolean wants(
            String workerId, Set<String> queues, int max, Duration leaseFor, Duration lookahead) {
        Objects.requireNonNull(workerId, "workerId");
        TaskQueue.checkLease(leaseFor, Objects.requireNonNull(lookahead, "lookahead"));
        return !queues.isEmpty() && max > 0;
    }
}
