package io.worldflow.world.local;

import io.worldflow.Payload;
import io.worldflow.spi.PendingSignal;
import io.worldflow.spi.SignalKey;
import io.worldflow.spi.SignalSent;
import io.worldflow.spi.Signals;
import io.worldflow.world.jdbc.Failures;
import io.worldflow.world.jdbc.Micros;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Signals in the {@code signals} table until an append consumes them. */
final class LocalSignals implements Signals {

    private static final String INSERT = """
            INSERT INTO signals (run_id, name, payload_json, payload_type, sent_at) VALUES (?, ?, ?, ?, ?)
            RETURNING id""";
    private static final String PENDING = """
            SELECT id, name, payload_json, payload_type, sent_at FROM signals WHERE run_id = ? ORDER BY id""";

    private static final String FIND_KEY = "SELECT signal_id FROM signal_keys WHERE run_id = ? AND key = ?";
    private static final String INSERT_KEY = "INSERT INTO signal_keys (run_id, key, signal_id) VALUES (?, ?, ?)";

    private final Database db;
    private final InstantSource clock;

    LocalSignals(Database db, InstantSource clock) {
        this.db = db;
        this.clock = clock;
    }

    @Override
    public SignalSent send(String runId, String name, Payload payload, String key) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(name, "name");
        SignalKey.check(key);
        Payload body = payload == null ? Payload.NULL : payload;
        return db.write("signal '" + name + "'", Failures.run(runId), tx -> {
            Instant now = clock.instant();
            RunTarget target = RunTarget.require(tx, runId, "signal");
            if (key != null) {
                PreparedStatement find = tx.prepare(FIND_KEY);
                find.setString(1, runId);
                find.setString(2, key);
                try (ResultSet rs = find.executeQuery()) {
                    if (rs.next()) {
                        return new SignalSent(rs.getLong(1), true);
                    }
                }
            }
            PreparedStatement ps = tx.prepare(INSERT);
            ps.setString(1, runId);
            ps.setString(2, name);
            ps.setString(3, body.json());
            ps.setString(4, body.type());
            Micros.bind(ps, 5, now);
            long id;
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                id = rs.getLong(1);
            }
            if (key != null) {
                PreparedStatement insertKey = tx.prepare(INSERT_KEY);
                insertKey.setString(1, runId);
                insertKey.setString(2, key);
                insertKey.setLong(3, id);
                insertKey.executeUpdate();
            }
            TaskRows.makeDue(tx, runId, target.queue(), target.priority(), now, now);
            return new SignalSent(id, false);
        });
    }

    @Override
    public List<PendingSignal> pending(String runId) {
        Objects.requireNonNull(runId, "runId");
        return db.read("pending signals", Failures.run(runId), sql -> {
            PreparedStatement ps = sql.prepare(PENDING);
            ps.setString(1, runId);
            List<PendingSignal> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new PendingSignal(rs.getLong(1), runId, rs.getString(2),
                            new Payload(rs.getString(3), rs.getString(4)), Micros.read(rs, 5)));
                }
            }
            return out;
        });
    }
}
