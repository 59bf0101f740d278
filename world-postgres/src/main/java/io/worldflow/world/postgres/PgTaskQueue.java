package io.worldflow.world.postgres;

import io.worldflow.spi.Lease;
import io.worldflow.spi.TaskQueue;
import org.jooq.CommonTableExpression;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Record2;

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

import static org.jooq.impl.DSL.any;
import static org.jooq.impl.DSL.castNull;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.greatest;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.least;
import static org.jooq.impl.DSL.min;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.table;
import static org.jooq.impl.DSL.uuid;
import static org.jooq.impl.DSL.val;
import static org.jooq.impl.DSL.when;

/**
 * Turns in the {@code tasks} table. Workers of any number of processes lease with
 * {@code FOR UPDATE SKIP LOCKED}, so they never wait for each other nor receive the same turn; wake-ups
 * travel by {@code LISTEN/NOTIFY} ({@link DueListener}).
 */
final class PgTaskQueue implements TaskQueue {

    private static final Field<String> PICKED_ID = field(name("picked", "run_id"), String.class);
    private static final Field<String> QUEUE_NAME = field(name("q", "queue"), String.class);

    private final Database db;
    private final Tables.Tasks t;
    private final Tables.Runs runs;
    private final TaskRows taskRows;
    private final InstantSource clock;
    private final DueNotifier notifier;
    private final DueListener listener;

    PgTaskQueue(Database db, InstantSource clock, DueNotifier notifier, DueListener listener) {
        this.db = db;
        this.t = db.tables.tasks;
        this.runs = db.tables.runs;
        this.taskRows = new TaskRows(db.tables);
        this.clock = clock;
        this.notifier = notifier;
        this.listener = listener;
    }

    /**
     * One statement: picks the most urgent due rows that no other transaction holds (skipping locked ones
     * rather than waiting), and leases them. A turn requested before now is covered by the new lease; one
     * requested for later is kept.
     */
    @Override
    public List<Lease> lease(String workerId, Set<String> queues, int max, Duration leaseFor) {
        Objects.requireNonNull(workerId, "workerId");
        requirePositive(leaseFor);
        if (queues.isEmpty() || max <= 0) {
            return List.of();
        }
        String[] queueArray = queues.toArray(String[]::new);
        List<Leased> leased = db.autocommit("lease", null, tx -> {
            Instant now = clock.instant();
            long nowMicros = Micros.of(now);
            Condition unleased = t.leaseToken.isNull().and(t.queue.eq(any(queueArray)))
                    .and(t.availableAt.le(nowMicros));
            Condition lapsed = t.leaseToken.isNotNull().and(t.queue.eq(any(queueArray)))
                    .and(t.leaseExpires.le(nowMicros)).and(t.availableAt.le(nowMicros));
            CommonTableExpression<?> picked = name("picked").fields("run_id").asMaterialized(
                    select(t.runId).from(t.table)
                            .where(unleased.or(lapsed))
                            .orderBy(t.priority.desc(), t.availableAt, t.runId)
                            .limit(max)
                            .forUpdate().skipLocked());
            List<Leased> out = new ArrayList<>();
            for (Record r : tx.sql.with(picked)
                    .update(t.table)
                    .set(t.leaseToken, uuid().cast(String.class))
                    .set(t.leaseOwner, workerId)
                    .set(t.leaseExpires, Micros.of(now.plus(leaseFor)))
                    .set(t.deliveries, t.deliveries.plus(1))
                    .set(t.requestedAt, when(t.requestedAt.le(nowMicros), castNull(Long.class)).otherwise(t.requestedAt))
                    .from(picked)
                    .where(t.runId.eq(PICKED_ID))
                    .returningResult(t.runId, t.leaseToken, t.queue, t.leaseExpires, t.deliveries, t.priority,
                            t.availableAt)
                    .fetch()) {
                Lease lease = new Lease(r.get(t.runId), r.get(t.leaseToken), r.get(t.queue),
                        Micros.toInstant(r.get(t.leaseExpires)), r.get(t.deliveries));
                out.add(new Leased(lease, r.get(t.priority), r.get(t.availableAt)));
            }
            return out;
        });
        // RETURNING gives rows in no particular order: restore the leasing order.
        leased.sort(Comparator.comparingInt(Leased::priority).reversed()
                .thenComparingLong(Leased::availableAt)
                .thenComparing(l -> l.lease().runId()));
        return leased.stream().map(Leased::lease).toList();
    }

    @Override
    public Optional<Lease> extend(Lease lease, Duration leaseFor) {
        Objects.requireNonNull(lease, "lease");
        requirePositive(leaseFor);
        return db.autocommit("extend lease", SqlFailures.run(lease.runId()), tx -> {
            Instant expires = Micros.truncate(clock.instant().plus(leaseFor));
            Record2<String, Integer> r = tx.sql.update(t.table)
                    .set(t.leaseExpires, Micros.of(expires))
                    .where(t.runId.eq(lease.runId()).and(t.leaseToken.eq(lease.token())))
                    .returningResult(t.queue, t.deliveries)
                    .fetchOne();
            return r == null ? Optional.<Lease>empty()
                    : Optional.of(new Lease(lease.runId(), lease.token(), r.value1(), expires, r.value2()));
        });
    }

    @Override
    public void complete(Lease lease, Instant wakeAt) {
        Objects.requireNonNull(lease, "lease");
        db.write("complete", SqlFailures.run(lease.runId()), tx -> {
            taskRows.complete(tx, List.of(TaskRows.End.of(lease, wakeAt)));
            return null;
        });
    }

    /** One statement: the turn is due now, announced in the same statement when the lease was current. */
    @Override
    public void release(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        db.autocommit("release", SqlFailures.run(lease.runId()), tx -> {
            Instant now = Micros.truncate(clock.instant());
            CommonTableExpression<?> released = name("released").as(tx.sql.update(t.table)
                    .set(t.availableAt, Micros.of(now))
                    .set(t.requestedAt, castNull(Long.class))
                    .set(t.leaseToken, castNull(String.class))
                    .set(t.leaseOwner, castNull(String.class))
                    .set(t.leaseExpires, castNull(Long.class))
                    .where(t.runId.eq(lease.runId()).and(t.leaseToken.eq(lease.token())))
                    .returningResult(t.runId));
            if (tx.sql.with(released).select(db.notify(now)).from(released).fetch().isNotEmpty()) {
                tx.wakeAt(now);
            }
            return null;
        });
    }

    @Override
    public void enqueue(String runId, Instant at) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(at, "at");
        db.write("enqueue", SqlFailures.run(runId), tx -> {
            Optional<RunTarget> target = RunTarget.lock(tx, runs, runId);
            if (target.isPresent() && !target.get().status().isTerminal()) {
                taskRows.makeDue(tx, runId, target.get().queue(), target.get().priority(), at, clock.instant());
            }
            return null;
        });
    }

    /**
     * The earliest due time of an unleased turn (per queue, the first entry of the due index) or the
     * earliest expiry of a leased one, in one statement.
     */
    @Override
    public Optional<Instant> nextDue(Set<String> queues) {
        if (queues.isEmpty()) {
            return Optional.empty();
        }
        String[] queueArray = queues.toArray(String[]::new);
        Long micros = db.read("next due", null, sql -> {
            Field<Long> firstUnleased = field(select(t.availableAt).from(t.table)
                    .where(t.queue.eq(QUEUE_NAME).and(t.leaseToken.isNull()))
                    .orderBy(t.availableAt).limit(inline(1)));
            Field<Long> unleased = field(select(min(firstUnleased))
                    .from(table("unnest({0})", val(queueArray)).as("q", "queue")));
            Field<Long> leased = field(select(min(greatest(t.availableAt, t.leaseExpires))).from(t.table)
                    .where(t.queue.eq(any(queueArray)).and(t.leaseToken.isNotNull())));
            return sql.select(least(unleased, leased)).fetchOne(0, Long.class);
        });
        return Optional.ofNullable(Micros.toInstant(micros));
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

    private static void requirePositive(Duration leaseFor) {
        Objects.requireNonNull(leaseFor, "leaseFor");
        if (leaseFor.isNegative() || leaseFor.isZero()) {
            throw new IllegalArgumentException("leaseFor must be positive, was " + leaseFor);
        }
    }
}
