package io.worldflow.world.postgres;

import io.worldflow.RunInfo;
import io.worldflow.spi.DueNotifier;
import io.worldflow.spi.EventCodec;
import io.worldflow.spi.Lease;
import io.worldflow.spi.LeasedRuns;
import io.worldflow.spi.LoadedRun;
import io.worldflow.world.jdbc.Failures;
import io.worldflow.world.jdbc.JdbcEventLog;
import io.worldflow.world.jdbc.JdbcTaskQueue;
import io.worldflow.world.jdbc.Micros;
import io.worldflow.world.jdbc.RunRows;
import io.worldflow.world.jdbc.Sql;
import io.worldflow.world.jdbc.SqlDialect;
import io.worldflow.world.jdbc.SqlWork;

import java.nio.ByteBuffer;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Turns in the {@code tasks} table. Workers of any number of processes lease with
 * {@code FOR UPDATE SKIP LOCKED}, so they never wait for each other nor receive the same turn; wake-ups
 * travel by {@code LISTEN/NOTIFY} ({@link DueListener}).
 */
final class PgTaskQueue extends JdbcTaskQueue {

    /**
     * Makes the statement's transaction commit without waiting for the WAL to reach the disk. For leases and
     * heartbeats only: a lease lost in a crash of the server is a lease that lapsed, and the expected sequence of
     * every append fences off whoever still held it. Whatever a turn writes commits durably.
     */
    private static final String SOFT_COMMIT =
            "soft AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true))";

    /** A lease's extension, committed without waiting for the disk. */
    private static final String EXTEND = "WITH " + SOFT_COMMIT + " UPDATE {tasks} SET lease_expires = :expires"
            + " FROM soft WHERE run_id = :runId AND lease_token = :token RETURNING queue, deliveries";

    /**
     * The priority levels of the turns of queue {@code %1$s}, highest first, then a null: a recursive query that
     * steps down the {@code tasks_next} index one level at a time.
     */
    private static final String LEVELS = """
            levels (priority) AS (
                (SELECT priority FROM {tasks} WHERE queue = %1$s ORDER BY priority DESC LIMIT 1)
                UNION ALL
                (SELECT (SELECT lower.priority FROM {tasks} AS lower
                         WHERE lower.queue = %1$s AND lower.priority < levels.priority
                         ORDER BY lower.priority DESC LIMIT 1)
                 FROM levels WHERE levels.priority IS NOT NULL))""";

    /**
     * The turns of queue {@code %1$s} at priority {@code %2$s} that are due and not leased (or whose lease lapsed),
     * in leasing order, each locked as it is read, skipping those another transaction holds.
     */
    private static final String DUE_AT_LEVEL = """
            LATERAL (SELECT run_id, available_at FROM {tasks}
                     WHERE queue = %1$s AND priority = %2$s AND available_at <= :dueBy
                       AND (lease_token IS NULL OR lease_expires <= :now)
                     ORDER BY available_at, run_id LIMIT :max
                     FOR UPDATE SKIP LOCKED) AS due""";

    /**
     * The turns to lease. The due turns are read one priority level at a time, highest first, and within a level
     * in leasing order: a level's due turns are one range of the {@code tasks_next} index, read from its start and
     * left as soon as enough are taken. The levels a queue has are found by stepping down the same index, one probe
     * per level. So a lease reads about as many rows as it takes, plus the turns in flight it steps over, however
     * many turns are due or sleeping and whatever the planner's statistics say (a queue that filled up since they
     * were last gathered included).
     *
     * <p>With one queue, the levels are read lazily: a lease locks exactly the turns it takes. With several, each
     * queue's levels are read and the best of them taken; the other rows those reads locked are unlocked when the
     * lease commits.
     */
    private static final String PICK_ONE_QUEUE = "picked (run_id) AS MATERIALIZED (WITH RECURSIVE "
            + LEVELS.formatted(":queue") + "\nSELECT due.run_id FROM levels CROSS JOIN "
            + DUE_AT_LEVEL.formatted(":queue", "levels.priority") + "\nWHERE levels.priority IS NOT NULL LIMIT :max)";

    private static final String PICK_SEVERAL_QUEUES = "picked (run_id) AS MATERIALIZED (SELECT due.run_id"
            + " FROM unnest(CAST(:queues AS text[])) AS q (queue)"
            + " CROSS JOIN LATERAL (WITH RECURSIVE " + LEVELS.formatted("q.queue")
            + " SELECT levels.priority FROM levels WHERE levels.priority IS NOT NULL) AS lv (priority)"
            + " CROSS JOIN " + DUE_AT_LEVEL.formatted("q.queue", "lv.priority")
            + "\nORDER BY lv.priority DESC, due.available_at, due.run_id LIMIT :max)";

    /**
     * A new lease's token: 122 random bits ({@code gen_random_uuid()}) in 22 characters of URL-safe base64, not the
     * 36 of a UUID's text, in every leased row's new version.
     */
    static final String LEASE_TOKEN =
            "rtrim(translate(encode(uuid_send(gen_random_uuid()), 'base64'), '+/', '-_'), '=')";

    /** A lease token made in this process, like {@link #LEASE_TOKEN} makes one: for a statement that returns no rows. */
    static String newLeaseToken() {
        UUID u = UUID.randomUUID();
        ByteBuffer bytes =
                ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
    }

    /** Leases the picked turns. A turn requested before now is covered by the new lease; one requested for later is kept. */
    private static final String LEASE_PICKED = """
            UPDATE {tasks} AS t SET
                lease_token = %s,
                lease_owner = :owner, lease_expires = :expires, deliveries = t.deliveries + 1,
                requested_at = CASE WHEN t.requested_at <= :now THEN NULL ELSE t.requested_at END
            FROM picked, soft
            WHERE t.run_id = picked.run_id
            RETURNING t.run_id, t.lease_token, t.queue, t.lease_expires, t.deliveries, t.priority, t.available_at""".formatted(LEASE_TOKEN);
    /** How many columns {@link #LEASE_PICKED} returns. */
    private static final int LEASED_COLUMNS = 7;

    /**
     * The leased turns with their runs read in the same statement: each turn's columns, then its run's row (null
     * when the run is gone) and the first record that row holds, then its log rows' first seqs and events as two
     * arrays in log order. The run and its log are read as of the statement's start, like a read right after the
     * lease, and an append that raced with it is fenced off by its expected sequence as always.
     */
    private static final String WITH_RUNS = "\nSELECT leased.*, " + RunRows.COLUMNS_OF_R + """
            , r.started, log.seqs, log.events
            FROM leased LEFT JOIN {runs} AS r ON r.run_id = leased.run_id
            CROSS JOIN LATERAL (SELECT array_agg(seq ORDER BY seq), array_agg(events ORDER BY seq)
                                FROM {event_log} WHERE run_id = leased.run_id) AS log (seqs, events)""";

    private final Database database;
    private final EventCodec codec;
    private final RunRows runRows;
    private final DueNotifier notifier;
    private final DueListener listener;
    /** For one queue, and for several. */
    private final Sql[] lease;
    /** The same, also reading the leased runs with their logs; for one queue, and for several. */
    private final Sql[] leaseAndLoad;

    private final Sql release;
    private final Sql nextDue;
    private final TaskVacuum vacuum;

    PgTaskQueue(
            Database db,
            EventCodec codec,
            InstantSource clock,
            DueNotifier notifier,
            DueListener listener,
            TaskVacuum vacuum) {
        super(db, clock, Sql.of(db.dialect().tables(EXTEND)));
        this.vacuum = vacuum;
        this.database = db;
        this.codec = codec;
        this.runRows = new RunRows(db.dialect(), codec);
        this.notifier = notifier;
        this.listener = listener;
        SqlDialect d = db.dialect();
        this.lease =
                new Sql[] {leaseStatement(d, PICK_ONE_QUEUE, false), leaseStatement(d, PICK_SEVERAL_QUEUES, false)};
        this.leaseAndLoad =
                new Sql[] {leaseStatement(d, PICK_ONE_QUEUE, true), leaseStatement(d, PICK_SEVERAL_QUEUES, true)};
        // due now, announced in the same statement when the lease was current
        this.release = Sql.of(d.tables("""
                WITH released AS (
                    UPDATE {tasks} SET available_at = :now, requested_at = NULL, lease_token = NULL, lease_owner = NULL,
                                       lease_expires = NULL
                    WHERE run_id = :runId AND lease_token = :token RETURNING run_id)
                SELECT pg_notify(:channel, :due) FROM released"""));
        // Per queue, the earliest unleased turn, and the earliest leased one, which is due again at the later of its
        // due time and its lease's expiry: only those due before the earliest unleased turn can come first. A leased
        // turn stays at the due time it was leased at, so they are at the start of the due index, as many as the
        // leases held.
        this.nextDue = Sql.of(d.tables("""
                SELECT min(least(f.first,
                                 (SELECT min(greatest(available_at, lease_expires)) FROM {tasks}
                                  WHERE queue = f.queue AND lease_token IS NOT NULL
                                    AND available_at < coalesce(f.first, 9223372036854775807))))
                FROM (SELECT q.queue, (SELECT available_at FROM {tasks} WHERE queue = q.queue AND lease_token IS NULL
                                       ORDER BY available_at LIMIT 1) AS first
                      FROM unnest(CAST(:queues AS text[])) AS q (queue)) AS f"""));
    }

    private static Sql leaseStatement(SqlDialect d, String pick, boolean withRuns) {
        String with = "WITH " + pick + ",\n" + SOFT_COMMIT;
        return Sql.of(d.tables(
                withRuns ? with + ",\nleased AS (" + LEASE_PICKED + ")" + WITH_RUNS : with + "\n" + LEASE_PICKED));
    }

    /** The lease statement for one queue or for several (its parameters: see {@link #leaseWith}). */
    Sql leaseStatement(boolean oneQueue) {
        return lease[oneQueue ? 0 : 1];
    }

    @Override
    public List<Lease> lease(String workerId, Set<String> queues, int max, Duration leaseFor, Duration lookahead) {
        return leaseWith(lease, workerId, queues, max, leaseFor, lookahead, (rs, granted) -> {});
    }

    /** {@link #lease} with the leased runs read in the same statement: see {@code WorkerAccess#leaseAndLoad}. */
    LeasedRuns leaseAndLoad(String workerId, Set<String> queues, int max, Duration leaseFor, Duration lookahead) {
        Map<String, LoadedRun> runs = new HashMap<>();
        List<Lease> leases = leaseWith(leaseAndLoad, workerId, queues, max, leaseFor, lookahead, (rs, granted) -> {
            LoadedRun run = loaded(rs, granted.runId());
            if (run != null) {
                runs.put(granted.runId(), run);
            }
        });
        return new LeasedRuns(leases, runs);
    }

    /** The run and log columns of a lease-and-load row, or null when the run is gone. */
    private LoadedRun loaded(ResultSet rs, String runId) throws SQLException {
        int at = LEASED_COLUMNS;
        if (rs.getString(at + 1) == null) {
            return null;
        }
        RunInfo info = runRows.map(rs, at);
        String started = rs.getString(at + RunRows.COLUMN_COUNT + 1);
        Array seqs = rs.getArray(at + RunRows.COLUMN_COUNT + 2);
        Array rows = rs.getArray(at + RunRows.COLUMN_COUNT + 3);
        List<JdbcEventLog.LogRow> log = new ArrayList<>();
        if (started != null) {
            log.add(new JdbcEventLog.LogRow(0, started));
        }
        if (seqs != null && rows != null) {
            Object[] first = (Object[]) seqs.getArray();
            Object[] json = (Object[]) rows.getArray();
            for (int i = 0; i < first.length; i++) {
                log.add(new JdbcEventLog.LogRow(((Number) first[i]).longValue(), (String) json[i]));
            }
        }
        return new LoadedRun(info, JdbcEventLog.decode(codec, runId, log));
    }

    /** Runs a lease statement; {@code more} reads what else a row holds beyond the lease's columns. */
    private List<Lease> leaseWith(
            Sql[] statements,
            String workerId,
            Set<String> queues,
            int max,
            Duration leaseFor,
            Duration lookahead,
            RowReader more) {
        if (!wants(workerId, queues, max, leaseFor, lookahead)) {
            return List.of();
        }
        String[] queueArray = queues.toArray(String[]::new);
        List<Leased> leased = writeLease("lease", null, tx -> {
            Instant now = clock.instant();
            Sql.Call statement = queueArray.length == 1
                    ? tx.call(statements[0]).set("queue", queueArray[0])
                    : tx.call(statements[1]).set("queues", queueArray);
            return statement
                    .set("now", Micros.of(now))
                    .set("dueBy", Micros.of(now.plus(lookahead)))
                    .set("max", max)
                    .set("owner", workerId)
                    .set("expires", Micros.of(now.plus(leaseFor)))
                    .list(rs -> {
                        Leased granted = Leased.read(rs);
                        more.read(rs, granted.lease());
                        return granted;
                    });
        });
        vacuum.leased(leased.size());
        return Leased.inOrder(leased);
    }

    /** Turns leased as they are admitted leave dead row versions behind as any lease does: they count alike. */
    @Override
    protected void leasedByMove(int count) {
        vacuum.leased(count);
    }

    /** The vacuum of the tasks table this queue's leases drive (tests). */
    TaskVacuum vacuum() {
        return vacuum;
    }

    /** Reads more of a lease statement's row. */
    @FunctionalInterface
    private interface RowReader {
        void read(ResultSet rs, Lease granted) throws SQLException;
    }

    /** Self-committing; the statements that write leases alone turn off {@code synchronous_commit} themselves. */
    @Override
    protected <T> T writeLease(String operation, String subject, SqlWork<T> work) {
        return database.autocommit(operation, subject, work);
    }

    @Override
    public void release(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        database.autocommit("release", Failures.run(lease.runId()), tx -> {
            Instant now = Micros.truncate(clock.instant());
            tx.call(release)
                    .set("now", Micros.of(now))
                    .set("runId", lease.runId())
                    .set("token", lease.token())
                    .set("channel", database.channel())
                    .set("due", Database.announcement(now))
                    .one(rs -> now)
                    .ifPresent(tx::announced);
            return null;
        });
    }

    @Override
    public Optional<Instant> nextDue(Set<String> queues) {
        if (queues.isEmpty()) {
            return Optional.empty();
        }
        String[] queueArray = queues.toArray(String[]::new);
        return db.read(
                "next due",
                null,
                tx -> tx.call(nextDue).set("queues", queueArray).list(rs -> Micros.read(rs, 1)).stream()
                        .filter(Objects::nonNull)
                        .findFirst());
    }

    @Override
    public Subscription subscribe(Consumer<Instant> dueAt) {
        Subscription subscription = notifier.subscribe(dueAt);
        listener.start();
        return subscription;
    }
}
