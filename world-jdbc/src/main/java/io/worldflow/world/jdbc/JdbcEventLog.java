package io.worldflow.world.jdbc;

import io.worldflow.ErrorInfo;
import io.worldflow.RunInfo;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStateException;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowRetried;
import io.worldflow.format.ChainKey;
import io.worldflow.format.LogChain;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.EventCodec;
import io.worldflow.spi.EventLog;
import io.worldflow.spi.LeasedAppends;
import io.worldflow.spi.LoadedRun;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.StoredLog;
import io.worldflow.spi.StoredRecord;
import io.worldflow.spi.TaskQueue;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Runs and their event logs in the {@code runs} and {@code event_log} tables, as both SQL worlds keep them: a log
 * row per append, its events {@code seq .. last_seq} as one stored record. A world adds how it creates a run and
 * how it writes appends; what a cancellation, a reopen, a hold, a read and an append's effects on other runs
 * ({@link AppendEffects}) do is written here once.
 */
public abstract class JdbcEventLog implements EventLog {

    protected final SqlDatabase db;
    protected final EventCodec codec;
    protected final InstantSource clock;
    protected final RunRows rows;
    protected final RunTarget.Reader targets;
    /** The key of the log's hash chain, or null for an unkeyed chain. */
    protected final ChainKey chainKey;

    private final JdbcSignals signals;
    private final AppendEffects effects;
    protected final SearchIndex search;
    private final Sql requestCancel;
    private final Sql insertLogRow;
    private final Sql head;
    private final Sql storedLog;
    private final Sql reopen;
    private final Sql hold;
    private final Sql read;
    private final Sql exists;
    private final Sql loadRuns;
    private final Sql loadEvents;
    private final RunPurge purge;

    /**
     * @param firstRecord the {@code runs} column that holds a run's first record (seq 0) when its log does not,
     *                    or null when every record is a log row; its link is then in the column of that name with
     *                    {@code _link} after it
     * @param chainKey    the key of the log's hash chain ({@link ChainKey#fromConfig}), or null for an unkeyed one
     */
    protected JdbcEventLog(
            SqlDatabase db, EventCodec codec, InstantSource clock, String firstRecord, ChainKey chainKey) {
        this.db = db;
        this.chainKey = chainKey;
        this.codec = codec;
        this.clock = clock;
        SqlDialect d = db.dialect();
        this.rows = new RunRows(d, codec);
        this.targets = new RunTarget.Reader(d);
        this.signals = new JdbcSignals(db, clock);
        this.effects = new AppendEffects(d, this, signals);
        this.search = new SearchIndex(d);
        String runs = d.table("runs");
        String log = d.table("event_log");
        // the first request's reason and time stay; a termination, once asked for, too; the asker is the first one,
        // or the one who raised a cancellation to a termination
        this.requestCancel = Sql.of("UPDATE " + runs + " SET cancel_reason = CASE WHEN cancel_requested"
                + " THEN cancel_reason ELSE :reason END, cancel_requested_at = CASE WHEN cancel_requested"
                + " THEN cancel_requested_at ELSE :now END, cancel_actor = CASE WHEN cancel_requested"
                + " AND (cancel_terminate OR NOT :terminate) THEN cancel_actor ELSE :actor END, cancel_requested = :yes,"
                + " cancel_terminate = (cancel_terminate OR :terminate), updated_at = :now WHERE run_id = :runId");
        this.insertLogRow = Sql.of("INSERT INTO " + log + " (run_id, seq, last_seq, events, link)"
                + " VALUES (:runId, :seq, :lastSeq, :events, :link)");
        this.head = Sql.of("SELECT head FROM " + runs + " WHERE run_id = :runId");
        this.reopen = Sql.of("UPDATE " + runs + " SET status = 'PENDING', log_length = :length, updated_at = :at,"
                + " output_json = NULL, output_type = NULL, error = NULL, held = NULL, held_since = NULL, head = :head"
                + " WHERE run_id = :runId");
        // a hold keeps the time it began while it lasts; an append or a reopen ends it (both columns back to NULL)
        this.hold = Sql.of("UPDATE " + runs + " SET held = :held, held_since = COALESCE(held_since, :now),"
                + " updated_at = :now WHERE run_id = :runId");
        // from the row that holds fromSeq: the last one starting at or before it
        String logRows = "SELECT seq, events FROM " + log + " WHERE run_id = :runId AND seq >= COALESCE((SELECT"
                + " MAX(seq) FROM " + log + " WHERE run_id = :runId AND seq <= :fromSeq), 0)";
        this.read = Sql.of(
                firstRecord == null
                        ? logRows + " ORDER BY seq"
                        : "SELECT 0, " + firstRecord + " FROM " + runs + " WHERE run_id = :runId AND " + firstRecord
                                + " IS NOT NULL AND :fromSeq = 0 UNION ALL " + logRows + " ORDER BY 1");
        this.exists = Sql.of("SELECT 1 FROM " + runs + " WHERE run_id = :runId");
        // one statement, so one snapshot: the run's length and head (seq -1), its first record when its row holds it,
        // then its log rows
        this.storedLog = Sql.of("SELECT -1, log_length, NULL, head FROM " + runs + " WHERE run_id = :runId"
                + (firstRecord == null
                        ? ""
                        : " UNION ALL SELECT 0, 0, " + firstRecord + ", " + firstRecord + "_link FROM " + runs
                                + " WHERE run_id = :runId AND " + firstRecord + " IS NOT NULL")
                + " UNION ALL SELECT seq, last_seq, events, link FROM " + log + " WHERE run_id = :runId ORDER BY 1");
        String ids = d.inTexts(":ids");
        this.loadRuns = Sql.of("SELECT " + RunRows.COLUMNS + ", " + (firstRecord == null ? "NULL" : firstRecord)
                + " FROM " + runs + " WHERE run_id" + ids);
        this.loadEvents =
                Sql.of("SELECT run_id, seq, events FROM " + log + " WHERE run_id" + ids + " ORDER BY run_id, seq");
        this.purge = new RunPurge(db);
    }

    @Override
    public final CreateResult create(NewRun run) {
        Objects.requireNonNull(run, "run");
        return create(run, codec.encodeAll(List.of(run.startedEvent())), null, null);
    }

    /** In one transaction. */
    @Override
    public final void createAll(List<NewRun> runs) {
        if (runs.isEmpty()) {
            return;
        }
        List<String> events = new ArrayList<>(runs.size());
        for (NewRun run : runs) {
            events.add(
                    codec.encodeAll(List.of(Objects.requireNonNull(run, "run").startedEvent())));
        }
        String subject = runs.size() == 1 ? Failures.run(runs.getFirst().runId()) : runs.size() + " runs";
        db.write("create", subject, tx -> {
            createIn(tx, runs, events, null);
            return null;
        });
    }

    /**
     * Creates the run; when it is new and due by now, its first turn is leased to {@code workerId} for
     * {@code leaseFor} in the same write ({@link io.worldflow.spi.WorkerAccess#createLeased}).
     */
    public final CreateResult createLeased(NewRun run, String workerId, Duration leaseFor) {
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(workerId, "workerId");
        TaskQueue.checkLease(leaseFor, null);
        Instant now = clock.instant();
        boolean due = !run.availableAt().isAfter(now) && !run.waits();
        String events = codec.encodeAll(List.of(run.startedEvent()));
        return due
                ? create(run, events, workerId, Micros.truncate(now.plus(leaseFor)))
                : create(run, events, null, null);
    }

    /**
     * Binds a new run's columns to a statement that inserts its {@code runs} row: {@code :runId}, {@code :workflow},
     * {@code :inputJson}, {@code :inputType}, {@code :createdAt}, {@code :availableAt}, {@code :deadline},
     * {@code :queue}, {@code :priority}, {@code :parent}, {@code :continuedFrom}, {@code :search} (its search attributes as its row keeps
     * them, {@link SearchIndex#json}) and {@code :orderKey} (its ordering key, {@link NewRun#key}).
     */
    protected static Sql.Call bindRun(Sql.Call call, NewRun run) throws SQLException {
        return call.set("runId", run.runId())
                .set("workflow", run.workflow())
                .set("inputJson", run.input().json())
                .set("inputType", run.input().type())
                .set("createdAt", Micros.of(run.createdAt()))
                .set("availableAt", Micros.of(run.availableAt()))
                .set("deadline", Micros.orNull(run.deadline()))
                .set("queue", run.queue())
                .set("priority", run.priority())
                .set("parent", run.parent())
                .set("continuedFrom", run.continuedFrom())
                .set("search", SearchIndex.json(run.searchAttributes()))
                .set("orderKey", run.key());
    }

    /** Binds a new run's first turn's {@code :turnQueue} and {@code :flowKey} ({@link NewRun#turnQueue}). */
    protected static Sql.Call bindTurn(Sql.Call call, NewRun run) throws SQLException {
        return call.set("turnQueue", run.turnQueue()).set("flowKey", run.key());
    }

    /**
     * Creates the run with its first record {@code events}; with {@code leaseTo} not null (the run is due), a new
     * run's first turn is leased to that worker until {@code expires}, and nobody else is woken for it.
     */
    protected abstract CreateResult create(NewRun run, String events, String leaseTo, Instant expires);

    /**
     * Creates the runs, each with its first record (the same index in {@code events}), inside the write {@code tx},
     * as {@link #create(NewRun)} does, each first turn due at its time; an id that exists is left as it is. With
     * {@code leases} not null, the first turn of each run it {@link StartLeases#wants wants} is leased as it is created
     * and recorded there ({@link StartLeases#leased}), and nobody is woken for it.
     */
    protected abstract void createIn(Tx tx, List<NewRun> runs, List<String> events, StartLeases leases)
            throws SQLException;

    /** The signals kept with these runs, which an append's effects send through. */
    public final JdbcSignals signals() {
        return signals;
    }

    @Override
    public final List<AppendResult> append(List<Append> appends) {
        if (appends.isEmpty()) {
            return List.of();
        }
        String first = Failures.run(appends.getFirst().runId());
        String subject = appends.size() == 1 ? first : appends.size() + " runs (first " + first + ")";
        return append(EncodedAppend.of(codec, appends, digestsBeforeWrite()), subject, null);
    }

    /** The appends, and the runs they create that {@code startsToLease} names leased in the same write. */
    public final LeasedAppends appendLeasingStarts(
            List<Append> appends, Set<String> startsToLease, String workerId, Duration leaseFor) {
        Objects.requireNonNull(startsToLease, "startsToLease");
        Objects.requireNonNull(workerId, "workerId");
        TaskQueue.checkLease(leaseFor, null);
        if (appends.isEmpty()) {
            return LeasedAppends.none(List.of());
        }
        Instant now = clock.instant();
        StartLeases leases =
                new StartLeases(startsToLease, workerId, Micros.truncate(now.plus(leaseFor)), Micros.truncate(now));
        String first = Failures.run(appends.getFirst().runId());
        String subject = appends.size() == 1 ? first : appends.size() + " runs (first " + first + ")";
        List<AppendResult> results = append(EncodedAppend.of(codec, appends, digestsBeforeWrite()), subject, leases);
        return new LeasedAppends(results, leases.granted());
    }

    /**
     * Whether each append's record is hashed ({@link EncodedAppend#digest}) before the write begins, so that the write
     * only links it: yes, unless the world's write hashes the record itself.
     */
    protected boolean digestsBeforeWrite() {
        return true;
    }

    /**
     * Writes the appends, encoded before the write begins, in order; one result per append.
     *
     * @param subject the runs concerned, for error messages
     * @param leases  null, or the starts to lease as they are created ({@link #applyEffects})
     */
    protected abstract List<AppendResult> append(List<EncodedAppend> appends, String subject, StartLeases leases);

    /**
     * Indexes, in {@code tx} after the appends, the search attributes that those whose result says they went through
     * change; a world whose appends may change them ({@link EncodedAppend#anySearchChanges}) calls it in their write.
     */
    protected final void indexSearch(Tx tx, List<EncodedAppend> appends, List<AppendResult> results)
            throws SQLException {
        search.changed(tx, appends, results.stream().map(AppendResult::appended).toList());
    }

    /**
     * Holds the rows of every run the appends aim at, where the database locks rows, before the appends are written
     * in {@code tx}: with {@link #applyEffects} after them, a world writes appends with effects on other runs.
     */
    protected final void lockForEffects(Tx tx, List<EncodedAppend> appends) throws SQLException {
        effects.lock(tx, appends);
    }

    /**
     * Applies, in {@code tx} after the appends, the effects on other runs of those whose result says they went
     * through ({@link Append#starts}, {@link Append#signals}, {@link Append#cancels}, {@link Append#carrySignalsTo}),
     * leasing the starts that {@code leases} (when not null) wants.
     */
    protected final void applyEffects(
            Tx tx, List<EncodedAppend> appends, List<AppendResult> results, StartLeases leases) throws SQLException {
        if (leases != null) {
            leases.reset(); // an earlier attempt of this write did not commit
        }
        effects.apply(tx, appends, results, clock.instant(), leases);
    }

    /**
     * Runs with their whole logs, read together ({@link io.worldflow.spi.WorkerAccess#load}): two statements however
     * many runs.
     */
    public final Map<String, LoadedRun> load(Collection<String> runIds) {
        List<String> ids = List.copyOf(new LinkedHashSet<>(runIds));
        if (ids.isEmpty()) {
            return Map.of();
        }
        Object bound = db.dialect().texts(ids);
        Map<String, RunInfo> infos = new HashMap<>();
        Map<String, List<LogRow>> logs = new HashMap<>();
        db.read("load", ids.size() + " runs", tx -> {
            tx.call(loadRuns).set("ids", bound).each(rs -> {
                RunInfo info = rows.map(rs, 0);
                String first = rs.getString(RunRows.COLUMN_COUNT + 1);
                if (first != null) {
                    logs.computeIfAbsent(info.runId(), k -> new ArrayList<>()).add(new LogRow(0, first));
                }
                return infos.put(info.runId(), info);
            });
            tx.call(loadEvents)
                    .set("ids", bound)
                    .each(rs -> logs.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                            .add(new LogRow(rs.getLong(2), rs.getString(3))));
            return null;
        });
        Map<String, LoadedRun> out = new LinkedHashMap<>();
        for (String id : ids) {
            RunInfo info = infos.get(id);
            if (info != null) {
                out.put(id, new LoadedRun(info, decode(codec, id, logs.getOrDefault(id, List.of()))));
            }
        }
        return out;
    }

    @Override
    public void requestCancel(String runId, String reason, boolean terminate, String actor) {
        Objects.requireNonNull(runId, "runId");
        String action = terminate ? "terminate" : "cancel";
        db.write(action, Failures.run(runId), tx -> {
            cancelIn(tx, targets.require(tx, runId, action), reason, terminate, actor, clock.instant());
            return null;
        });
    }

    /**
     * Marks {@code target}, whose row the write holds, for cancellation (or termination) and makes it due, as
     * {@link #requestCancel} does.
     */
    void cancelIn(Tx tx, RunTarget target, String reason, boolean terminate, String actor, Instant now)
            throws SQLException {
        if (!target.cancelRequested() || terminate) {
            tx.call(requestCancel)
                    .set("yes", true)
                    .set("reason", reason)
                    .set("actor", actor)
                    .set("terminate", terminate)
                    .set("now", Micros.of(now))
                    .set("runId", target.runId())
                    .update();
        }
        db.dialect().makeDue(tx, target.runId(), target.queue(), target.priority(), now, now);
    }

    @Override
    public void reopen(WorkflowRetried retried) {
        Objects.requireNonNull(retried, "retried");
        String runId = retried.runId();
        String events = codec.encodeAll(List.of(retried));
        db.write("reopen", Failures.run(runId), tx -> {
            RunTarget target = targets.find(tx, runId).orElseThrow(() -> new RunNotFoundException(runId));
            if (target.status() != RunStatus.FAILED) {
                throw RunStateException.notFailed(runId, target.status());
            }
            if (target.logLength() != retried.seq()) {
                throw RunStateException.logMoved(runId, target.logLength(), retried.seq());
            }
            byte[] previous =
                    tx.call(head).set("runId", runId).one(rs -> rs.getBytes(1)).orElse(null);
            byte[] link =
                    LogChain.link(runId, previous, retried.seq(), retried.seq(), LogChain.digest(events), chainKey);
            insertLogRow(tx, runId, retried.seq(), retried.seq(), events, link);
            tx.call(reopen)
                    .set("head", link)
                    .set("length", retried.seq() + 1)
                    .set("at", Micros.of(retried.at()))
                    .set("runId", runId)
                    .update();
            db.dialect().makeDue(tx, runId, target.queue(), target.priority(), retried.at(), clock.instant());
            return null;
        });
    }

    /** Writes the log row of the events {@code seq .. lastSeq}, stored as one record, with its link. */
    protected final void insertLogRow(Tx tx, String runId, long seq, long lastSeq, String events, byte[] link)
            throws SQLException {
        tx.call(insertLogRow)
                .set("runId", runId)
                .set("seq", seq)
                .set("lastSeq", lastSeq)
                .set("events", events)
                .set("link", link)
                .update();
    }

    /** The link of a new run's first record: a run's head once it is created. */
    protected final byte[] firstLink(NewRun run, String record) {
        return LogChain.link(run.runId(), null, 0, 0, LogChain.digest(record), chainKey);
    }

    @Override
    public final StoredLog storedLog(String runId) {
        Objects.requireNonNull(runId, "runId");
        // the run's row comes first as a record at seq -1: its length where a record's last seq is, its head as link
        List<StoredRecord> rows = db.read(
                "read the stored log of",
                Failures.run(runId),
                tx -> tx.call(storedLog)
                        .set("runId", runId)
                        .list(rs -> new StoredRecord(
                                rs.getLong(1),
                                rs.getLong(2),
                                rs.getString(3) == null ? "" : rs.getString(3),
                                rs.getBytes(4))));
        if (rows.isEmpty() || rows.getFirst().seq() >= 0) {
            throw new RunNotFoundException(runId);
        }
        StoredRecord run = rows.getFirst();
        return new StoredLog(runId, run.lastSeq(), run.link(), rows.subList(1, rows.size()));
    }

    /** Records why the run is held. Unknown run: {@link RunNotFoundException}; a finished run is left as it is. */
    @Override
    public void hold(String runId, ErrorInfo reason) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(reason, "reason");
        String json = codec.encodeError(reason);
        db.write("hold", Failures.run(runId), tx -> {
            Optional<RunTarget> target = targets.find(tx, runId);
            if (target.isEmpty()) {
                throw new RunNotFoundException(runId);
            }
            if (!target.get().status().isTerminal()) {
                tx.call(hold)
                        .set("held", json)
                        .set("now", Micros.of(clock.instant()))
                        .set("runId", runId)
                        .update();
            }
            return null;
        });
    }

    /** In one transaction per batch: see {@link RunPurge}. */
    @Override
    public int purgeFinished(Instant finishedBefore, int limit) {
        return purge.purge(finishedBefore, limit);
    }

    @Override
    public List<Event> read(String runId, long fromSeq) {
        Objects.requireNonNull(runId, "runId");
        List<LogRow> stored = db.read("read", Failures.run(runId), tx -> {
            List<LogRow> out = tx.call(read)
                    .set("runId", runId)
                    .set("fromSeq", Math.max(0, fromSeq))
                    .list(rs -> new LogRow(rs.getLong(1), rs.getString(2)));
            boolean found = !out.isEmpty()
                    || tx.call(exists).set("runId", runId).one(rs -> true).isPresent();
            return found ? out : null;
        });
        if (stored == null) {
            throw new RunNotFoundException(runId);
        }
        List<Event> events = new ArrayList<>();
        for (Event e : decode(codec, runId, stored)) {
            if (e.seq() >= fromSeq) {
                events.add(e);
            }
        }
        return events;
    }

    /** A run's events from its stored records, in order. */
    public static List<Event> decode(EventCodec codec, String runId, List<LogRow> stored) {
        List<Event> events = new ArrayList<>();
        for (LogRow row : stored) {
            events.addAll(codec.decodeAll(runId, row.seq(), row.events()));
        }
        return events;
    }

    /** A stored record of the log: the events of one append, the first numbered {@code seq}. */
    public record LogRow(long seq, String events) {}
}
