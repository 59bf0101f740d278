package io.worldflow.world.postgres;

import io.worldflow.RunInfo;
import io.worldflow.spi.DueNotifier;
import io.worldflow.spi.EventCodec;
import io.worldflow.spi.Lease;
import io.worldflow.spi.LeasedRuns;
import io.worldflow.spi.LoadedRun;
import io.worldflow.spi.TaskQueue;
import io.worldflow.world.jdbc.Failures;
import io.worldflow.world.jdbc.Micros;
import io.worldflow.world.jdbc.Sql;
import io.worldflow.world.jdbc.JdbcEventLog;
import io.worldflow.world.jdbc.RunRows;
import io.worldflow.world.jdbc.RunTarget;
import org.jooq.CommonTableExpression;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Record1;
import org.jooq.Select;
import org.jooq.SelectField;
import org.jooq.Table;
import org.jooq.UpdateResultStep;
import org.jooq.UpdateSetFirstStep;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

import static org.jooq.impl.DSL.any;
import static org.jooq.impl.DSL.arrayAgg;
import static org.jooq.impl.DSL.castNull;
import static org.jooq.impl.DSL.coalesce;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.function;
import static org.jooq.impl.DSL.greatest;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.lateral;
import static org.jooq.impl.DSL.least;
import static org.jooq.impl.DSL.min;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.param;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.table;
import static org.jooq.impl.DSL.update;
import static org.jooq.impl.DSL.when;
import static org.jooq.impl.DSL.with;
import static org.jooq.impl.DSL.withRecursive;

/**
 * Turns in the {@code tasks} table. Workers of any number of processes lease with
 * {@code FOR UPDATE SKIP LOCKED}, so they never wait for each other nor receive the same turn; wake-ups
 * travel by {@code LISTEN/NOTIFY} ({@link DueListener}).
 */
final class PgTaskQueue implements TaskQueue {

    /** The columns a lease statement returns first, in order. */
    private static final String[] LEASED_COLUMNS = {"run_id", "lease_token", "queue", "lease_expires", "deliveries",
            "priority", "available_at"};

    /**
     * A new lease's token: 122 random bits ({@code gen_random_uuid()}) in 22 characters of URL-safe base64, not the
     * 36 of a UUID's text, in every leased row's new version.
     */
    static final Field<String> LEASE_TOKEN = field(
            "rtrim(translate(encode(uuid_send(gen_random_uuid()), 'base64'), '+/', '-_'), '=')", String.class);

    private final Database db;
    private final TaskRows taskRows;
    private final RunTarget.Reader locker;
    private final InstantSource clock;
    private final DueNotifier notifier;
    private final DueListener listener;
    private final EventCodec codec;
    private final RunRows runRows;
    /** For one queue, and for several. */
    private final Sql[] lease;
    /** The same, also reading the leased runs with their logs; for one queue, and for several. */
    private final Sql[] leaseAndLoad;
    private final Sql extend;
    private final Sql release;
    private final Sql nextDue;

    PgTaskQueue(Database db, EventCodec codec, InstantSource clock, DueNotifier notifier, DueListener listener) {
        this.db = db;
        this.codec = codec;
        this.runRows = new RunRows(db.dialect(), codec);
        this.taskRows = db.taskRows;
        this.locker = new RunTarget.Reader(db.dialect());
        this.clock = clock;
        this.notifier = notifier;
        this.listener = listener;
        Tables.Tasks t = db.tables.tasks;
        Field<Long> now = param("now", Long.class);
        Field<String[]> queues = param("queues", String[].class);

        // Picks the most urgent due rows that no other transaction holds (skipping locked ones rather than
        // waiting) and leases them: turns never leased and turns whose lease lapsed, read in leasing order. A turn
        // requested before now is covered by the new lease; one requested for later is kept. One query for one
        // queue, one for several (see leaseChoice).
        this.lease = new Sql[]{leaseStatement(t, true), leaseStatement(t, false)};
        this.leaseAndLoad = new Sql[]{leaseAndLoadStatement(db.tables, true),
                leaseAndLoadStatement(db.tables, false)};
        Condition held = t.runId.eq(param("runId", String.class)).and(t.leaseToken.eq(param("token", String.class)));
        this.extend = Jooq.sql(with(softCommit())
                .update(t.table)
                .set(t.leaseExpires, param("expires", Long.class))
                .from(name("soft"))
                .where(held)
                .returningResult(t.queue, t.deliveries));

        // due now, announced in the same statement when the lease was current
        this.release = Jooq.sql(with(name("released").as(update(t.table)
                        .set(t.availableAt, now)
                        .set(t.requestedAt, castNull(Long.class))
                        .set(t.leaseToken, castNull(String.class))
                        .set(t.leaseOwner, castNull(String.class))
                        .set(t.leaseExpires, castNull(Long.class))
                        .where(held)
                        .returningResult(t.runId)))
                .select(Database.announce())
                .from(name("released")));

        // Per queue, the earliest unleased turn, and the earliest leased one, which is due again at the later of
        // its due time and its lease's expiry: only those due before the earliest unleased turn can come first. A
        // leased turn stays at the due time it was leased at, so they are at the start of the due index, as many
        // as the leases held.
        Field<String> queue = field(name("q", "queue"), String.class);
        Field<Long> firstUnleased = field(select(t.availableAt).from(t.table)
                .where(t.queue.eq(queue).and(t.leaseToken.isNull()))
                .orderBy(t.availableAt).limit(inline(1)));
        Field<String> perQueue = field(name("f", "queue"), String.class);
        Field<Long> first = field(name("f", "first"), Long.class);
        Field<Long> firstLapse = field(select(min(greatest(t.availableAt, t.leaseExpires))).from(t.table)
                .where(t.queue.eq(perQueue).and(t.leaseToken.isNotNull())
                        .and(t.availableAt.lt(coalesce(first, inline(Long.MAX_VALUE))))));
        this.nextDue = Jooq.sql(select(min(least(first, firstLapse)))
                .from(select(queue, firstUnleased.as("first"))
                        .from(table("unnest({0})", queues).as("q", "queue")).asTable("f")));
    }

    /**
     * A one-row table whose reading makes the statement's transaction commit without waiting for the WAL to
     * reach the disk. For leases and heartbeats only: a lease lost in a crash of the server is a lease that
     * lapsed, and the expected sequence of every append fences off whoever still held it. Whatever a turn
     * writes commits durably.
     */
    private static CommonTableExpression<?> softCommit() {
        return name("soft").fields("setting").asMaterialized(
                select(function("set_config", String.class, inline("synchronous_commit"), inline("off"), inline(true))));
    }

    /**
     * The turns to lease ({@code picked}) and {@code soft}. The due turns are read one priority level at a
     * time, highest first, and within a level in leasing order: a level's due turns are one range of the
     * {@code tasks_next} index, read from its start and left as soon as enough are taken. The levels a queue
     * has are found by stepping down the same index, one probe per level. So a lease reads about as many rows
     * as it takes, plus the turns in flight it steps over, however many turns are due or sleeping and whatever
     * the planner's statistics say (a queue that filled up since they were last gathered included).
     *
     * <p>With one queue, the levels are read lazily: a lease locks exactly the turns it takes. With several,
     * each queue's levels are read and the best of them taken; the other rows those reads locked are unlocked
     * when the lease commits.
     */
    private static List<CommonTableExpression<?>> leaseChoice(Tables.Tasks t, boolean oneQueue) {
        Field<Integer> max = param("max", Integer.class);
        Select<Record1<String>> picked;
        if (oneQueue) {
            Field<String> queue = param("queue", String.class);
            Field<Integer> level = field(name("levels", "priority"), Integer.class);
            picked = withRecursive(levels(t, queue))
                    .select(field(name("due", "run_id"), String.class))
                    .from(table(name("levels")))
                    .crossJoin(dueAtLevel(t, queue, level))
                    .where(level.isNotNull())
                    .limit(max);
        } else {
            Field<String> queue = field(name("q", "queue"), String.class);
            Field<Integer> level = field(name("lv", "priority"), Integer.class);
            Field<Integer> levelsPriority = field(name("levels", "priority"), Integer.class);
            picked = select(field(name("due", "run_id"), String.class))
                    .from(table("unnest({0})", param("queues", String[].class)).as("q", "queue"))
                    .crossJoin(lateral(withRecursive(levels(t, queue))
                            .select(levelsPriority).from(table(name("levels"))).where(levelsPriority.isNotNull()))
                            .as("lv", "priority"))
                    .crossJoin(dueAtLevel(t, queue, level))
                    .orderBy(level.desc(), field(name("due", "available_at")), field(name("due", "run_id")))
                    .limit(max);
        }
        return List.of(name("picked").fields("run_id").asMaterialized(picked), softCommit());
    }

    /**
     * The priority levels of {@code queue}'s turns, highest first, then a null: a recursive query that steps
     * down the {@code tasks_next} index one level at a time.
     */
    private static CommonTableExpression<Record1<Integer>> levels(Tables.Tasks t, Field<String> queue) {
        Table<Record> lower = t.table.as("lower");
        Field<String> lowerQueue = field(name("lower", "queue"), String.class);
        Field<Integer> lowerPriority = field(name("lower", "priority"), Integer.class);
        Field<Integer> level = field(name("levels", "priority"), Integer.class);
        return name("levels").fields("priority").as(
                select(t.priority).from(t.table).where(t.queue.eq(queue))
                        .orderBy(t.priority.desc()).limit(inline(1))
                        .unionAll(select(field(select(lowerPriority).from(lower)
                                        .where(lowerQueue.eq(queue).and(lowerPriority.lt(level)))
                                        .orderBy(lowerPriority.desc()).limit(inline(1))))
                                .from(table(name("levels")))
                                .where(level.isNotNull())));
    }

    /**
     * {@code due}: the turns of {@code queue} at priority {@code level} that are due and not leased (or whose
     * lease lapsed), in leasing order, each locked as it is read, skipping those another transaction holds.
     */
    private static Table<?> dueAtLevel(Tables.Tasks t, Field<String> queue, Field<Integer> level) {
        Field<Long> now = param("now", Long.class);
        return lateral(select(t.runId, t.availableAt).from(t.table)
                .where(t.queue.eq(queue).and(t.priority.eq(level)).and(t.availableAt.le(param("dueBy", Long.class)))
                        .and(t.leaseToken.isNull().or(t.leaseExpires.le(now))))
                .orderBy(t.availableAt, t.runId)
                .limit(param("max", Integer.class))
                .forUpdate().skipLocked())
                .as("due", "run_id", "available_at");
    }

    /** Leases the {@code picked} turns, returning the {@link #LEASED_COLUMNS}. */
    private static UpdateResultStep<?> leasePicked(UpdateSetFirstStep<Record> update, Tables.Tasks t) {
        Field<Long> now = param("now", Long.class);
        return update
                .set(t.leaseToken, LEASE_TOKEN)
                .set(t.leaseOwner, param("owner", String.class))
                .set(t.leaseExpires, param("expires", Long.class))
                .set(t.deliveries, t.deliveries.plus(inline(1)))
                .set(t.requestedAt, when(t.requestedAt.le(now), castNull(Long.class)).otherwise(t.requestedAt))
                .from(table(name("picked")), table(name("soft")))
                .where(t.runId.eq(field(name("picked", "run_id"), String.class)))
                .returningResult(t.runId, t.leaseToken, t.queue, t.leaseExpires, t.deliveries, t.priority,
                        t.availableAt);
    }

    private static Sql leaseStatement(Tables.Tasks t, boolean oneQueue) {
        return Jooq.sql(leasePicked(with(leaseChoice(t, oneQueue)).update(t.table), t));
    }

    /**
     * The lease statement with the leased runs read in it: each leased turn's columns, then its run's row (null
     * when the run is gone) and the first record that row holds, then its log rows' first seqs and events as two
     * arrays in log order. The run and
     * its log are read as of the statement's start, like a read right after the lease, and an append that
     * raced with it is fenced off by its expected sequence as always.
     */
    private static Sql leaseAndLoadStatement(Tables tables, boolean oneQueue) {
        Tables.Tasks t = tables.tasks;
        Tables.Log l = tables.log;
        List<CommonTableExpression<?>> ctes = new ArrayList<>(leaseChoice(t, oneQueue));
        ctes.add(name("leased").fields(LEASED_COLUMNS).as(leasePicked(update(t.table), t)));
        Field<String> leasedRunId = field(name("leased", "run_id"), String.class);
        List<SelectField<?>> columns = new ArrayList<>();
        for (String c : LEASED_COLUMNS) {
            columns.add(field(name("leased", c)));
        }
        columns.addAll(List.of(tables.runs.columns));
        columns.add(tables.runs.started);
        columns.add(field(name("log", "seqs")));
        columns.add(field(name("log", "events")));
        return Jooq.sql(with(ctes)
                .select(columns)
                .from(table(name("leased")))
                .leftJoin(tables.runs.table).on(tables.runs.runId.eq(leasedRunId))
                .crossJoin(lateral(select(arrayAgg(l.seq).orderBy(l.seq), arrayAgg(l.events).orderBy(l.seq))
                        .from(l.table)
                        .where(l.runId.eq(leasedRunId)))
                        .as("log", "seqs", "events")));
    }

    /** The lease statement for one queue or for several (its parameters: see {@link #leaseWith}). */
    Sql leaseStatement(boolean oneQueue) {
        return lease[oneQueue ? 0 : 1];
    }

    @Override
    public List<Lease> lease(String workerId, Set<String> queues, int max, Duration leaseFor, Duration lookahead) {
        return leaseWith(lease, workerId, queues, max, leaseFor, lookahead, (rs, granted) -> { });
    }

    /** {@link #lease} with the leased runs read in the same statement: see {@link io.worldflow.spi.WorkerAccess#leaseAndLoad}. */
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

    /** The run and log columns of a {@link #leaseAndLoadStatement} row, or null when the run is gone. */
    private LoadedRun loaded(ResultSet rs, String runId) throws SQLException {
        int at = LEASED_COLUMNS.length;
        if (rs.getString(at + 1) == null) {
            return null;
        }
        RunInfo info = runRows.map(rs, at);
        String started = rs.getString(at + RunRows.COLUMN_COUNT + 1);
        Array seqs = rs.getArray(at + RunRows.COLUMN_COUNT + 2);
        Array rows = rs.getArray(at + RunRows.COLUMN_COUNT + 3);
        List<JdbcEventLog.LogRow> log = new ArrayList<>();
        if (seqs != null && rows != null) {
            Object[] first = (Object[]) seqs.getArray();
            Object[] json = (Object[]) rows.getArray();
            for (int i = 0; i < first.length; i++) {
                log.add(new JdbcEventLog.LogRow(((Number) first[i]).longValue(), (String) json[i]));
            }
        }
        return new LoadedRun(info, PgEventLog.decode(codec, runId, started, log));
    }

    /** Runs a lease statement; {@code more} reads what else a row holds beyond the lease's columns. */
    private List<Lease> leaseWith(Sql[] statements, String workerId, Set<String> queues, int max, Duration leaseFor,
                                  Duration lookahead, RowReader more) {
        Objects.requireNonNull(workerId, "workerId");
        requirePositive(leaseFor);
        requireNotNegative(lookahead);
        if (queues.isEmpty() || max <= 0) {
            return List.of();
        }
        String[] queueArray = queues.toArray(String[]::new);
        List<Leased> leased = db.autocommit("lease", null, tx -> {
            Instant now = clock.instant();
            List<Leased> out = new ArrayList<>();
            Sql.Call statement = queueArray.length == 1
                    ? tx.call(statements[0]).set("queue", queueArray[0])
                    : tx.call(statements[1]).set("queues", queueArray);
            try (Sql.Call call = statement.set("now", Micros.of(now)).set("dueBy", Micros.of(now.plus(lookahead)))
                    .set("max", max).set("owner", workerId).set("expires", Micros.of(now.plus(leaseFor)));
                 ResultSet rs = call.query()) {
                while (rs.next()) {
                    Lease granted = new Lease(rs.getString(1), rs.getString(2), rs.getString(3),
                            Micros.toInstant(rs.getLong(4)), rs.getInt(5));
                    out.add(new Leased(granted, rs.getInt(6), rs.getLong(7)));
                    more.read(rs, granted);
                }
            }
            return out;
        });
        // RETURNING gives rows in no particular order: restore the leasing order.
        leased.sort(Comparator.comparingInt(Leased::priority).reversed()
                .thenComparingLong(Leased::availableAt)
                .thenComparing(l -> l.lease().runId()));
        return leased.stream().map(Leased::lease).toList();
    }

    /** Reads more of a lease statement's row. */
    @FunctionalInterface
    private interface RowReader {
        void read(ResultSet rs, Lease granted) throws SQLException;
    }

    @Override
    public Optional<Lease> extend(Lease lease, Duration leaseFor) {
        Objects.requireNonNull(lease, "lease");
        requirePositive(leaseFor);
        return db.autocommit("extend lease", Failures.run(lease.runId()), tx -> {
            Instant expires = Micros.truncate(clock.instant().plus(leaseFor));
            try (Sql.Call call = tx.call(extend).set("expires", Micros.of(expires)).set("runId", lease.runId())
                    .set("token", lease.token());
                 ResultSet rs = call.query()) {
                return rs.next()
                        ? Optional.of(new Lease(lease.runId(), lease.token(), rs.getString(1), expires, rs.getInt(2)))
                        : Optional.<Lease>empty();
            }
        });
    }

    @Override
    public void complete(Lease lease, Instant wakeAt) {
        Objects.requireNonNull(lease, "lease");
        db.write("complete", Failures.run(lease.runId()), tx -> {
            taskRows.complete(tx, List.of(TaskRows.End.of(lease, wakeAt)));
            return null;
        });
    }

    @Override
    public void release(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        db.autocommit("release", Failures.run(lease.runId()), tx -> {
            Instant now = Micros.truncate(clock.instant());
            try (Sql.Call call = tx.call(release).set("now", Micros.of(now)).set("runId", lease.runId())
                    .set("token", lease.token()).set("channel", db.channel()).set("due", Database.announcement(now));
                 ResultSet rs = call.query()) {
                if (rs.next()) {
                    tx.announced(now);
                }
            }
            return null;
        });
    }

    @Override
    public void enqueue(String runId, Instant at) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(at, "at");
        db.write("enqueue", Failures.run(runId), tx -> {
            Optional<RunTarget> target = locker.find(tx, runId);
            if (target.isPresent() && !target.get().status().isTerminal()) {
                taskRows.makeDue(tx, runId, target.get().queue(), target.get().priority(), at, clock.instant());
            }
            return null;
        });
    }

    @Override
    public Optional<Instant> nextDue(Set<String> queues) {
        if (queues.isEmpty()) {
            return Optional.empty();
        }
        String[] queueArray = queues.toArray(String[]::new);
        return db.read("next due", null, tx -> {
            try (Sql.Call call = tx.call(nextDue).set("queues", queueArray); ResultSet rs = call.query()) {
                rs.next();
                return Optional.ofNullable(Micros.read(rs, 1));
            }
        });
    }

    @Override
    public Subscription subscribe(Consumer<Instant> dueAt) {
        Subscription subscription = notifier.subscribe(dueAt);
        listener.start();
        return subscription;
    }

    /** A lease with what orders it among the others of the same call. */
    private record Leased(Lease lease, int priority, long availableAt) {
    }

    static void requirePositive(Duration leaseFor) {
        Objects.requireNonNull(leaseFor, "leaseFor");
        if (leaseFor.isNegative() || leaseFor.isZero()) {
            throw new IllegalArgumentException("leaseFor must be positive, was " + leaseFor);
        }
    }

    private static void requireNotNegative(Duration lookahead) {
        Objects.requireNonNull(lookahead, "lookahead");
        if (lookahead.isNegative()) {
            throw new IllegalArgumentException("lookahead must not be negative, was " + lookahead);
        }
    }
}
