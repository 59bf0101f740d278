package io.worldflow.world.local;

import io.worldflow.spi.DueNotifier;
import io.worldflow.spi.Lease;
import io.worldflow.world.jdbc.Failures;
import io.worldflow.world.jdbc.JdbcTaskQueue;
import io.worldflow.world.jdbc.Micros;
import io.worldflow.world.jdbc.Tx;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/** Turns in the {@code tasks} table, leased in write transactions; wake-ups pushed in process. */
final class LocalTaskQueue extends JdbcTaskQueue {

    /**
     * The next priority level below ?2 that has an unleased turn in queue ?1: one step down the
     * {@code tasks_fresh} index.
     */
    private static final String NEXT_LEVEL = """
            SELECT priority FROM tasks INDEXED BY tasks_fresh
            WHERE queue = ?1 AND lease_expires IS NULL AND priority < ?2
            ORDER BY priority DESC LIMIT 1""";
    /** The earliest ?4 unleased turns of queue ?1 at priority ?2 due by ?3, in leasing order. */
    private static final String FRESH = """
            SELECT run_id, priority, available_at FROM tasks INDEXED BY tasks_fresh
            WHERE queue = ?1 AND lease_expires IS NULL AND priority = ?2 AND available_at <= ?3
            ORDER BY available_at, run_id LIMIT ?4""";
    /** The best ?4 turns of queue ?1 whose lease lapsed by ?2 and that are due by ?3 (few: turns in flight). */
    private static final String LAPSED = """
            SELECT run_id, priority, available_at FROM tasks
            WHERE queue = ?1 AND lease_expires IS NOT NULL AND lease_expires <= ?2 AND available_at <= ?3
            ORDER BY priority DESC, available_at, run_id LIMIT ?4""";
    /**
     * Leases the chosen rows: ?1 owner, ?2 lease expiry, ?3 now, then the run ids. A turn requested before now
     * is covered by the new lease; one requested for later is kept.
     */
    private static final String CLAIM = """
            UPDATE tasks SET
                lease_token = lower(hex(randomblob(16))), lease_owner = ?1, lease_expires = ?2,
                deliveries = deliveries + 1,
                requested_at = CASE WHEN requested_at <= ?3 THEN NULL ELSE requested_at END
            WHERE run_id IN (%s)
            RETURNING run_id, lease_token, queue, lease_expires, deliveries, priority, available_at""";
    /** Leasing order: highest priority first, then earliest due, then run id. */
    private static final Comparator<Candidate> LEASING_ORDER = Comparator.comparingInt(Candidate::priority).reversed()
            .thenComparingLong(Candidate::availableAt)
            .thenComparing(Candidate::runId);
    private static final String EXTEND = """
            UPDATE tasks SET lease_expires = ? WHERE run_id = ? AND lease_token = ?
            RETURNING queue, deliveries""";
    private static final String RELEASE = """
            UPDATE tasks SET available_at = ?, requested_at = NULL, lease_token = NULL, lease_owner = NULL,
                lease_expires = NULL
            WHERE run_id = ? AND lease_token = ?""";
    private static final String NEXT_UNLEASED = """
            SELECT available_at FROM tasks WHERE queue = ? AND lease_expires IS NULL ORDER BY available_at LIMIT 1""";
    private static final String NEXT_LEASED = """
            SELECT MIN(MAX(available_at, lease_expires)) FROM tasks WHERE queue = ? AND lease_expires IS NOT NULL""";

    private final Database database;
    private final DueNotifier notifier;

    LocalTaskQueue(Database db, InstantSource clock, DueNotifier notifier) {
        super(db, clock);
        this.database = db;
        this.notifier = notifier;
    }

    @Override
    public List<Lease> lease(String workerId, Set<String> queues, int max, Duration leaseFor, Duration lookahead) {
        Objects.requireNonNull(workerId, "workerId");
        requirePositive(leaseFor);
        requireNotNegative(lookahead);
        if (queues.isEmpty() || max <= 0) {
            return List.of();
        }
        List<Leased> leased = database.writeLease("lease", null, tx -> {
            Instant now = clock.instant();
            long nowMicros = Micros.of(now);
            long dueBy = Micros.of(now.plus(lookahead));
            List<Candidate> candidates = new ArrayList<>();
            for (String queue : queues) {
                fresh(tx, queue, dueBy, max, candidates);
                lapsed(tx, queue, nowMicros, dueBy, max, candidates);
            }
            if (candidates.isEmpty()) {
                return List.of();
            }
            candidates.sort(LEASING_ORDER);
            List<Candidate> chosen = candidates.subList(0, Math.min(max, candidates.size()));
            PreparedStatement ps = tx.prepare(CLAIM.formatted(placeholders(4, chosen.size())));
            ps.setString(1, workerId);
            Micros.bind(ps, 2, now.plus(leaseFor));
            ps.setLong(3, nowMicros);
            for (int i = 0; i < chosen.size(); i++) {
                ps.setString(4 + i, chosen.get(i).runId());
            }
            List<Leased> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Lease lease = new Lease(rs.getString(1), rs.getString(2), rs.getString(3), Micros.read(rs, 4),
                            rs.getInt(5));
                    out.add(new Leased(lease, rs.getInt(6), rs.getLong(7)));
                }
            }
            return out;
        });
        return Leased.inOrder(leased);
    }

    /**
     * Adds up to {@code max} unleased turns of {@code queue} due by {@code dueBy}, level by level from the
     * highest priority down, each level read in due order from the index: the cost follows the turns taken
     * and the levels passed, not the number of due turns.
     */
    private static void fresh(Tx tx, String queue, long dueBy, int max, List<Candidate> out) throws SQLException {
        long below = Long.MAX_VALUE;
        int found = 0;
        while (found < max) {
            PreparedStatement level = tx.prepare(NEXT_LEVEL);
            level.setString(1, queue);
            level.setLong(2, below);
            int priority;
            try (ResultSet rs = level.executeQuery()) {
                if (!rs.next()) {
                    return;
                }
                priority = rs.getInt(1);
            }
            PreparedStatement due = tx.prepare(FRESH);
            due.setString(1, queue);
            due.setInt(2, priority);
            due.setLong(3, dueBy);
            due.setInt(4, max - found);
            found += read(due, out);
            below = priority;
        }
    }

    private static void lapsed(Tx tx, String queue, long now, long dueBy, int max, List<Candidate> out)
            throws SQLException {
        PreparedStatement ps = tx.prepare(LAPSED);
        ps.setString(1, queue);
        ps.setLong(2, now);
        ps.setLong(3, dueBy);
        ps.setInt(4, max);
        read(ps, out);
    }

    private static int read(PreparedStatement ps, List<Candidate> out) throws SQLException {
        int n = 0;
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(new Candidate(rs.getString(1), rs.getInt(2), rs.getLong(3)));
                n++;
            }
        }
        return n;
    }

    @Override
    public Optional<Lease> extend(Lease lease, Duration leaseFor) {
        Objects.requireNonNull(lease, "lease");
        requirePositive(leaseFor);
        return database.writeLease("extend lease", Failures.run(lease.runId()), tx -> {
            Instant expires = Micros.truncate(clock.instant().plus(leaseFor));
            PreparedStatement ps = tx.prepare(EXTEND);
            Micros.bind(ps, 1, expires);
            ps.setString(2, lease.runId());
            ps.setString(3, lease.token());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Lease(lease.runId(), lease.token(), rs.getString(1), expires, rs.getInt(2)));
            }
        });
    }

    @Override
    public void complete(Lease lease, Instant wakeAt) {
        Objects.requireNonNull(lease, "lease");
        db.write("complete", Failures.run(lease.runId()), tx -> {
            TaskRows.complete(tx, lease, wakeAt);
            return null;
        });
    }

    @Override
    public void release(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        db.write("release", Failures.run(lease.runId()), tx -> {
            Instant now = clock.instant();
            PreparedStatement ps = tx.prepare(RELEASE);
            Micros.bind(ps, 1, now);
            ps.setString(2, lease.runId());
            ps.setString(3, lease.token());
            if (ps.executeUpdate() > 0) {
                tx.wakeAt(Micros.truncate(now));
            }
            return null;
        });
    }

    @Override
    public Optional<Instant> nextDue(Set<String> queues) {
        if (queues.isEmpty()) {
            return Optional.empty();
        }
        return db.read("next due", null, sql -> {
            Instant earliest = null;
            for (String queue : queues) {
                earliest = earlier(earliest, first(sql, NEXT_UNLEASED, queue));
                earliest = earlier(earliest, first(sql, NEXT_LEASED, queue));
            }
            return Optional.ofNullable(earliest);
        });
    }

    @Override
    public Subscription subscribe(Consumer<Instant> dueAt) {
        return notifier.subscribe(dueAt);
    }

    /** A turn that may be leased, with what orders it. */
    private record Candidate(String runId, int priority, long availableAt) {
    }

    private static Instant first(Tx sql, String query, String queue) throws SQLException {
        PreparedStatement ps = sql.prepare(query);
        ps.setString(1, queue);
        try (ResultSet rs = ps.executeQuery()) {
            return rs.next() ? Micros.read(rs, 1) : null;
        }
    }

    private static Instant earlier(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        return b == null || a.isBefore(b) ? a : b;
    }

    /** "?5, ?6, ?7" */
    private static String placeholders(int first, int count) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < count; i++) {
            out.append(i == 0 ? "" : ", ").append('?').append(first + i);
        }
        return out.toString();
    }
}
