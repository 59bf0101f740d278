package io.worldflow.world.jdbc;

import io.worldflow.Payload;
import io.worldflow.RunNotFoundException;
import io.worldflow.spi.PendingSignal;
import io.worldflow.spi.RevokedUrl;
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
    private final Sql storeInBatch;
    private final Sql revoke;
    private final Sql revoked;

    public JdbcSignals(SqlDatabase db, InstantSource clock) {
        this.db = db;
        this.clock = clock;
        SqlDialect d = db.dialect();
        this.targets = new RunTarget.Reader(d);
        this.insert =
                Sql.of("INSERT INTO " + d.table("signals") + " (run_id, name, payload_json, payload_type, sent_at,"
                        + " actor) VALUES (:runId, :name, :json, :type, :sentAt, :actor) RETURNING id");
        this.pending = Sql.of("SELECT id, name, payload_json, payload_type, sent_at, actor FROM " + d.table("signals")
                + " WHERE run_id = :runId ORDER BY id");
        this.findKey =
                Sql.of("SELECT signal_id FROM " + d.table("signal_keys") + " WHERE run_id = :runId AND key = :key");
        this.insertKey = Sql.of(
                "INSERT INTO " + d.table("signal_keys") + " (run_id, key, signal_id)" + " VALUES (:runId, :key, :id)");
        this.storeInBatch = d.storeSignalInBatch().map(Sql::of).orElse(null);
        String revokedUrls = d.table("revoked_urls");
        this.revoke = Sql.of("INSERT INTO " + revokedUrls + " (run_id, token_id, revoked_at, actor)"
                + " VALUES (:runId, :tokenId, :at, :actor) ON CONFLICT (run_id, token_id) DO NOTHING");
        this.revoked = Sql.of("SELECT token_id, revoked_at, actor FROM " + revokedUrls
                + " WHERE run_id = :runId ORDER BY revoked_at, token_id");
    }

    @Override
    public SignalSent send(String runId, String name, Payload payload, String key, String actor) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(name, "name");
        SignalKey.check(key);
        Payload body = payload == null ? Payload.NULL : payload;
        return db.write("signal '" + name + "'", Failures.run(runId), tx -> {
            RunTarget target = targets.require(tx, runId, "signal");
            return sendIn(tx, target, name, body, key, actor, clock.instant());
        });
    }

    /**
     * Stores the signal for {@code target}, whose row the write holds, and makes the run due, as {@link #send} does;
     * with a key the run has taken, nothing is stored and the first signal's id is returned as a duplicate.
     */
    SignalSent sendIn(Tx tx, RunTarget target, String name, Payload body, String key, String actor, Instant now)
            throws SQLException {
        SignalSent sent = storeIn(tx, target, name, body, key, actor, now);
        if (!sent.duplicate()) {
            db.dialect().makeDue(tx, target.runId(), target.queue(), target.priority(), now, now);
        }
        return sent;
    }

    /** A signal to store for a run whose row the write holds ({@link #storeAllIn}). */
    record ToStore(RunTarget target, String name, Payload body, String key) {}

    /**
     * Stores the signals as {@link #storeIn} stores each, in order, as one batch where the dialect has a statement for
     * it, without making their runs due.
     *
     * @return for each, whether it was stored (false: a duplicate of its key)
     */
    boolean[] storeAllIn(Tx tx, List<ToStore> all, Instant now) throws SQLException {
        boolean[] stored = new boolean[all.size()];
        if (storeInBatch == null || all.size() == 1) {
            for (int i = 0; i < all.size(); i++) {
                ToStore s = all.get(i);
                stored[i] = !storeIn(tx, s.target(), s.name(), s.body(), s.key(), null, now)
                        .duplicate();
            }
            return stored;
        }
        try (Sql.Call call = tx.call(storeInBatch)) {
            for (ToStore s : all) {
                call.set("runId", s.target().runId())
                        .set("name", s.name())
                        .set("json", s.body().json())
                        .set("type", s.body().type())
                        .set("sentAt", Micros.of(now))
                        .set("key", s.key())
                        .addBatch();
            }
            int[] counts = call.executeBatch();
            for (int i = 0; i < all.size(); i++) {
                stored[i] = all.get(i).key() == null || counts[i] != 0;
            }
        }
        return stored;
    }

    /** Stores the signal as {@link #sendIn} does, without making the run due: the caller does, once for many. */
    SignalSent storeIn(Tx tx, RunTarget target, String name, Payload body, String key, String actor, Instant now)
            throws SQLException {
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
                .set("actor", actor)
                .one(rs -> rs.getLong(1))
                .orElseThrow();
        if (key != null) {
            tx.call(insertKey).set("runId", runId).set("key", key).set("id", id).update();
        }
        return new SignalSent(id, false);
    }

    /** With the run's row held, so that a purge of the run cannot leave the revocation behind. */
    @Override
    public void revokeUrl(String runId, String tokenId, String actor) {
        Objects.requireNonNull(runId, "runId");
        RevokedUrl.checkTokenId(tokenId);
        db.write("revoke a signal URL of", Failures.run(runId), tx -> {
            targets.find(tx, runId).orElseThrow(() -> new RunNotFoundException(runId));
            return tx.call(revoke)
                    .set("runId", runId)
                    .set("tokenId", tokenId)
                    .set("at", Micros.of(clock.instant()))
                    .set("actor", actor)
                    .update();
        });
    }

    @Override
    public List<RevokedUrl> revokedUrls(String runId) {
        return listOf(
                "revoked signal URLs",
                runId,
                revoked,
                rs -> new RevokedUrl(rs.getString(1), Micros.read(rs, 2), rs.getString(3)));
    }

    @Override
    public List<PendingSignal> pending(String runId) {
        return listOf(
                "pending signals",
                runId,
                pending,
                rs -> new PendingSignal(
                        rs.getLong(1),
                        runId,
                        rs.getString(2),
                        new Payload(rs.getString(3), rs.getString(4)),
                        Micros.read(rs, 5),
                        rs.getString(6)));
    }

    /** The rows {@code sql} finds for the run ({@code :runId}), each mapped by {@code row}. */
    private <T> List<T> listOf(String what, String runId, Sql sql, Sql.Row<T> row) {
        Objects.requireNonNull(runId, "runId");
        return db.read(
                what,
                Failures.run(runId),
                tx -> tx.call(sql).set("runId", runId).list(row));
    }
}
