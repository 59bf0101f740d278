package io.worldflow.world.jdbc;

import io.worldflow.Payload;
import io.worldflow.spi.PendingSignal;
import io.worldflow.spi.SignalKey;
import io.worldflow.spi.SignalSent;
import io.worldflow.spi.Signals;

import java.sql.SQLException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Signals in the {@code signals} table until an append consumes them. A signal is sent with the run's row held
 * ({@link RunTarget}): signals to one run get ids in the order they commit, and a key is checked and recorded
 * without a race. Keys stay in {@code signal_keys} after their signal is consumed.
 */
public final class JdbcSignals implements Signals {

    private final SqlDatabase db;
    private final InstantSource clock;
    private final RunTarget.Reader targets;
    private final Sql insert;
    private final Sql pending;
    private final Sql findKey;
    private final Sql insertKey;

    public JdbcSignals(SqlDatabase db, InstantSource clock) {
        this.db = db;
        this.clock = clock;
        SqlDialect d = db.dialect();
        this.targets = new RunTarget.Reader(d);
        this.insert =
                Sql.of("INSERT INTO " + d.table("signals") + " (run_id, name, payload_json, payload_type, sent_at)"
                        + " VALUES (:runId, :name, :json, :type, :sentAt) RETURNING id");
        this.pending = Sql.of("SELECT id, name, payload_json, payload_type, sent_at FROM " + d.table("signals")
                + " WHERE run_id = :runId ORDER BY id");
        this.findKey =
                Sql.of("SELECT signal_id FROM " + d.table("signal_keys") + " WHERE run_id = :runId AND key = :key");
        this.insertKey = Sql.of(
                "INSERT INTO " + d.table("signal_keys") + " (run_id, key, signal_id)" + " VALUES (:runId, :key, :id)");
    }

    @Override
    public SignalSent send(String runId, String name, Payload payload, String key) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(name, "name");
        SignalKey.check(key);
        Payload body = payload == null ? Payload.NULL : payload;
        return db.write("signal '" + name + "'", Failures.run(runId), tx -> {
            RunTarget target = targets.require(tx, runId, "signal");
            return sendIn(tx, target, name, body, key, clock.instant());
        });
    }

    /**
     * Stores the signal for {@code target}, whose row the write holds, and makes the run due, as {@link #send} does;
     * with a key the run has taken, nothing is stored and the first signal's id is returned as a duplicate.
     */
    SignalSent sendIn(Tx tx, RunTarget target, String name, Payload body, String key, Instant now) throws SQLException {
        String runId = target.runId();
        if (key != null) {
            Optional<Long> sent =
                    tx.call(findKey).set("runId", runId).set("key", key).one(rs -> rs.getLong(1));
            if (sent.isPresent()) {
                return new SignalSent(sent.get(), true);
            }
        }
        long id = tx.call(insert)
                .set("runId", runId)
                .set("name", name)
                .set("json", body.json())
                .set("type", body.type())
                .set("sentAt", Micros.of(now))
                .one(rs -> rs.getLong(1))
                .orElseThrow();
        if (key != null) {
            tx.call(insertKey).set("runId", runId).set("key", key).set("id", id).update();
        }
        db.dialect().makeDue(tx, runId, target.queue(), target.priority(), now, now);
        return new SignalSent(id, false);
    }

    @Override
    public List<PendingSignal> pending(String runId) {
        Objects.requireNonNull(runId, "runId");
        return db.read(
                "pending signals",
                Failures.run(runId),
                tx -> tx.call(pending)
                        .set("runId", runId)
                        .list(rs -> new PendingSignal(
                                rs.getLong(1),
                                runId,
                                rs.getString(2),
                                new Payload(rs.getString(3), rs.getString(4)),
                                Micros.read(rs, 5))));
    }
}
