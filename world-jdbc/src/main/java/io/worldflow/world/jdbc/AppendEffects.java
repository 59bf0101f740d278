package io.worldflow.world.jdbc;

import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.OutgoingCancel;
import io.worldflow.spi.OutgoingSignal;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What appends do to other runs ({@link Append#starts}, {@link Append#signals}, {@link Append#cancels},
 * {@link Append#carrySignalsTo}), written in the appends' own transaction after all of them, for those that went
 * through only. Each effect is the statement its facet method uses (a create, a send, a cancellation), aimed at a run
 * whose row it holds, so that it sees the store as the batch's appends leave it: a signal to a run that a batch's
 * append has just finished is skipped like one to a run that finished long ago.
 *
 * <p>Carrying signals moves the rows: they keep their ids (so their order, before any signal sent to the successor
 * later), names, payloads and sent-at, and their keys follow them. The ended run's row is held by its append, so a
 * send to it either committed before (its signal moves) or waits and then finds the run finished.
 */
final class AppendEffects {

    private final SqlDialect dialect;
    private final JdbcEventLog log;
    private final JdbcSignals signals;
    private final RunTarget.Reader targets;
    private final Sql lock;
    private final Sql dropTakenKeys;
    private final Sql copyKeys;
    private final Sql move;

    AppendEffects(SqlDialect dialect, JdbcEventLog log, JdbcSignals signals) {
        this.dialect = dialect;
        this.log = log;
        this.signals = signals;
        this.targets = new RunTarget.Reader(dialect);
        this.lock = Sql.of(dialect.tables("SELECT run_id FROM {runs} WHERE run_id" + dialect.inTexts(":ids")
                + " ORDER BY run_id" + dialect.lockRow()));
        // a carried signal whose key the successor has already taken is a duplicate there, as a send of it would be
        this.dropTakenKeys = Sql.of(dialect.tables("""
                DELETE FROM {signals} WHERE run_id = :from AND id IN (
                    SELECT k.signal_id FROM {signal_keys} k JOIN {signal_keys} t ON t.run_id = :to AND t.key = k.key
                    WHERE k.run_id = :from)"""));
        // the keys of the signals still pending; those of consumed signals stay with the run that took them
        this.copyKeys = Sql.of(dialect.tables("""
                INSERT INTO {signal_keys} (run_id, key, signal_id)
                SELECT :to, k.key, k.signal_id FROM {signal_keys} k JOIN {signals} s ON s.id = k.signal_id
                WHERE k.run_id = :from AND s.run_id = :from"""));
        this.move = Sql.of(dialect.tables("UPDATE {signals} SET run_id = :to WHERE run_id = :from"));
    }

    /**
     * Holds the rows of every run the appends aim at, in run id order, before anything else is written, where the
     * database locks rows: two batches whose runs signal each other then queue up instead of deadlocking. Only
     * signals and cancellations lock rows of runs other than the batch's own; starts and carried signals write rows
     * the batch creates (a successor is one of its append's starts) and its own runs' rows, which the appends lock in
     * run id order themselves, so a batch without signals or cancellations locks nothing here. Nor does a world
     * whose writes never overlap (a single writer).
     */
    void lock(Tx tx, List<EncodedAppend> appends) throws SQLException {
        if (dialect.lockRow().isEmpty()) {
            return;
        }
        Set<String> ids = new TreeSet<>();
        boolean others = false;
        for (EncodedAppend e : appends) {
            Append a = e.append();
            ids.add(a.runId());
            a.signals().forEach(s -> ids.add(s.runId()));
            a.cancels().forEach(c -> ids.add(c.runId()));
            others |= !a.signals().isEmpty() || !a.cancels().isEmpty();
        }
        if (others) {
            tx.call(lock).set("ids", dialect.texts(ids)).list(rs -> rs.getString(1));
        }
    }

    /**
     * Applies the effects of each append whose result says it went through: first the runs they start, all together
     * (a parent's hundred children are one write), then the rest of each append's effects, in order.
     */
    void apply(Tx tx, List<EncodedAppend> appends, List<AppendResult> results, Instant now, StartLeases leases)
            throws SQLException {
        List<NewRun> starts = new ArrayList<>();
        List<String> firstRecords = new ArrayList<>();
        for (int i = 0; i < appends.size(); i++) {
            EncodedAppend e = appends.get(i);
            if (results.get(i).appended()) {
                starts.addAll(e.append().starts());
                firstRecords.addAll(e.starts());
            }
        }
        if (!starts.isEmpty()) {
            log.createIn(tx, starts, firstRecords, leases);
        }
        Signaled signaled = new Signaled();
        for (int i = 0; i < appends.size(); i++) {
            EncodedAppend e = appends.get(i);
            if (results.get(i).appended() && e.append().hasEffects()) {
                apply(tx, e, signaled, now);
            }
        }
        boolean[] stored = signals.storeAllIn(tx, signaled.toStore, now);
        Map<String, RunTarget> due = new LinkedHashMap<>();
        for (int i = 0; i < stored.length; i++) {
            RunTarget t = signaled.toStore.get(i).target();
            if (stored[i]) {
                due.putIfAbsent(t.runId(), t);
            }
        }
        for (RunTarget t : due.values()) {
            dialect.makeDue(tx, t.runId(), t.queue(), t.priority(), now, now);
        }
    }

    /**
     * The runs a batch's appends signal, each read once, and their signals, stored together after every append's
     * other effects (after any signals carried to a successor, too) and each run made due once: a hundred children's
     * ends sent to one parent are one batch of statements, not three hundred. Nothing the effects write finishes a
     * run, so a target read once stays what it was.
     */
    private static final class Signaled {
        final Map<String, Optional<RunTarget>> targets = new HashMap<>();
        final List<JdbcSignals.ToStore> toStore = new ArrayList<>();
    }

    private void apply(Tx tx, EncodedAppend e, Signaled signaled, Instant now) throws SQLException {
        Append a = e.append();
        // before the append's own signals: the carried ones arrived first
        if (a.carrySignalsTo() != null) {
            carry(tx, a.runId(), a.carrySignalsTo(), now);
        }
        for (OutgoingSignal s : a.signals()) {
            Optional<RunTarget> target = signaled.targets.get(s.runId());
            if (target == null) {
                target = unfinished(tx, s.runId());
                signaled.targets.put(s.runId(), target);
            }
            target.ifPresent(t -> signaled.toStore.add(new JdbcSignals.ToStore(t, s.name(), s.payload(), s.key())));
        }
        for (OutgoingCancel c : a.cancels()) {
            Optional<RunTarget> target = unfinished(tx, c.runId());
            if (target.isPresent()) {
                log.cancelIn(tx, target.get(), c.reason(), c.terminate(), null, now);
            }
        }
    }

    /** The run with its row held, when it exists and has not finished: what a send or a cancellation may reach. */
    private Optional<RunTarget> unfinished(Tx tx, String runId) throws SQLException {
        return targets.find(tx, runId).filter(t -> !t.status().isTerminal());
    }

    /** Moves the ended run's pending signals to its successor, which is due for a turn when any moved. */
    private void carry(Tx tx, String from, String to, Instant now) throws SQLException {
        Optional<RunTarget> successor = unfinished(tx, to);
        if (successor.isEmpty()) {
            return; // a successor that existed and has finished takes nothing, as it would refuse a send
        }
        tx.call(dropTakenKeys).set("from", from).set("to", to).update();
        tx.call(copyKeys).set("from", from).set("to", to).update();
        int moved = tx.call(move).set("from", from).set("to", to).update();
        if (moved > 0) {
            RunTarget t = successor.get();
            dialect.makeDue(tx, to, t.queue(), t.priority(), now, now);
        }
    }
}
