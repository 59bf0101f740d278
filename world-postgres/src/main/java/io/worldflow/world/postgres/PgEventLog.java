package io.worldflow.world.postgres;

import io.worldflow.format.ChainKey;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.EventCodec;
import io.worldflow.spi.Lease;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.SearchValues;
import io.worldflow.world.jdbc.EncodedAppend;
import io.worldflow.world.jdbc.Failures;
import io.worldflow.world.jdbc.JdbcEventLog;
import io.worldflow.world.jdbc.Micros;
import io.worldflow.world.jdbc.Sql;
import io.worldflow.world.jdbc.SqlDialect;
import io.worldflow.world.jdbc.StartLeases;
import io.worldflow.world.jdbc.Tx;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Runs and their event logs in the {@code runs} and {@code event_log} tables. */
final class PgEventLog extends JdbcEventLog {

    private final Database database;
    private final AppendStatement oneStatement;
    /** The heads of runs about to be appended to, locked: a keyed chain's links are made here, not in the database. */
    private final Sql heads;

    private final Sql create;
    private final Sql createLeased;
    private final Sql createQuietly;
    private final Sql createQuietlyLeased;

    PgEventLog(Database db, EventCodec codec, InstantSource clock, ChainKey chainKey) {
        super(db, codec, clock, "started", chainKey);
        this.database = db;
        this.oneStatement = new AppendStatement(db.dialect(), db.channel(), db.endChannel(), chainKey != null);
        this.heads = Sql.of(db.dialect()
                .tables("SELECT run_id, head FROM {runs} WHERE run_id = ANY(CAST(:ids AS text[])) ORDER BY run_id"
                        + " FOR UPDATE"));
        SqlDialect d = db.dialect();
        this.create = createStatement(d, false);
        this.createLeased = createStatement(d, true);
        this.createQuietly = Sql.of(d.tables(CREATED + """
                INSERT INTO {tasks} (run_id, queue, priority, available_at, deliveries, flow_key)
                SELECT run_id, :turnQueue, :priority, :availableAt, 0, CAST(:flowKey AS text) FROM created"""));
        this.createQuietlyLeased = Sql.of(d.tables(CREATED + """
                INSERT INTO {tasks} (run_id, queue, priority, available_at, lease_token, lease_owner, lease_expires,
                                     deliveries, flow_key)
                SELECT run_id, :turnQueue, :priority, :availableAt, :token, :owner, :expires, 1, CAST(:flowKey AS text)
                FROM created"""));
    }

    private static final String CREATED = """
            WITH created AS (
                INSERT INTO {runs} (run_id, workflow, status, input_json, input_type, created_at, updated_at,
                                    available_at, deadline, queue, priority, log_length, started, parent_run_id,
                                    continued_from, started_link, head, search_attributes, order_key)
                SELECT :runId, :workflow, 'PENDING', :inputJson, CAST(:inputType AS text), :createdAt, :createdAt,
                       :availableAt, CAST(:deadline AS bigint), :queue, :priority, 1, :events, CAST(:parent AS text),
                       CAST(:continuedFrom AS text), :link, :link, CAST(:search AS text), CAST(:orderKey AS text)
                WHERE NOT EXISTS (SELECT 1 FROM {runs} WHERE run_id = :runId)
                RETURNING run_id),
            indexed AS (
                INSERT INTO {run_attributes} (run_id, name, value, created_at)
                SELECT c.run_id, a.name, a.value, :createdAt
                FROM created c, unnest(CAST(:attrNames AS text[]), CAST(:attrValues AS text[])) AS a(name, value))
            """;

    /**
     * One statement, so one round trip and one commit: the run's row with its first event (unless the id exists),
     * its first turn and the NOTIFY that announces it, as data-modifying parts of one {@code WITH}. The row is
     * inserted where no run has the id, not with {@code ON CONFLICT}, whose speculative insertion writes a
     * second WAL record per run; two creates of one id at the same moment meet at the primary key instead
     * ({@link #create}). With {@code leased}, the turn is inserted leased to {@code :owner} until {@code :expires}
     * and nobody is notified: the statement returns the lease's token.
     */
    private static Sql createStatement(SqlDialect d, boolean leased) {
        return Sql.of(d.tables(CREATED + (leased ? """
                , queued AS (
                    INSERT INTO {tasks} (run_id, queue, priority, available_at, lease_token, lease_owner, lease_expires,
                                         deliveries, flow_key)
                    SELECT run_id, :turnQueue, :priority, :availableAt, %s, :owner, :expires, 1, CAST(:flowKey AS text)
                    FROM created
                    RETURNING lease_token)
                SELECT lease_token FROM queued""".formatted(PgTaskQueue.LEASE_TOKEN) : """
                , queued AS (
                    INSERT INTO {tasks} (run_id, queue, priority, available_at, deliveries, flow_key)
                    SELECT run_id, :turnQueue, :priority, :availableAt, 0, CAST(:flowKey AS text) FROM created
                    RETURNING run_id)
                SELECT pg_notify(:channel, :due) FROM created""")));
    }

    /** In one statement, which notifies nobody when it leases the turn. */
    @Override
    protected CreateResult create(NewRun run, String events, String leaseTo, Instant expires) {
        boolean leased = leaseTo != null;
        return database.autocommit("create", Failures.run(run.runId()), tx -> {
            Sql.Call call = withAttributes(bindTurn(bindRun(tx.call(leased ? createLeased : create), run), run), run)
                    .set("events", events)
                    .set("link", firstLink(run, events));
            Optional<String> created; // with the lease's token when leased
            try {
                created = (leased
                                ? call.set("owner", leaseTo).set("expires", Micros.of(expires))
                                : call.set("channel", database.channel())
                                        .set("due", Database.announcement(run.availableAt())))
                        .one(rs -> leased ? rs.getString(1) : "");
            } catch (SQLException e) {
                if (!SqlFailures.isDuplicateKey(e, database.tableName("runs"))) {
                    throw e;
                }
                created = Optional.empty(); // created by another transaction since this statement began
            }
            if (created.isEmpty()) {
                return new CreateResult(rows.find(tx, run.runId()).orElseThrow(), false);
            }
            if (leased) {
                Lease lease = new Lease(run.runId(), created.get(), run.queue(), expires, 1);
                return new CreateResult(run.createdInfo(Micros::truncate), true, lease);
            }
            tx.announced(Micros.truncate(run.availableAt()));
            return new CreateResult(run.createdInfo(Micros::truncate), true);
        });
    }

    /**
     * Inside a longer transaction, where a unique violation would abort all of it: the runs go as JDBC batches (a round
     * trip for those created plain, one for those leased as they are created) behind a savepoint, and the
     * transaction's commit announces the earliest plain turn. A leased turn's token is made here, so that a batch,
     * which returns no rows, still knows it. When another transaction has created one of the ids since the batch
     * began, the batch is undone and each run is created as a batch of its own, so that the one created elsewhere
     * counts as existing, as {@link #create} counts it.
     */
    @Override
    protected void createIn(Tx tx, List<NewRun> runs, List<String> events, StartLeases leases) throws SQLException {
        Connection c = tx.connection();
        Savepoint before = c.setSavepoint();
        String[] tokens = new String[runs.size()];
        int[] created = new int[runs.size()];
        try {
            List<Integer> plain = new ArrayList<>();
            List<Integer> leased = new ArrayList<>();
            for (int i = 0; i < runs.size(); i++) {
                if (leases != null && leases.wants(runs.get(i))) {
                    tokens[i] = PgTaskQueue.newLeaseToken();
                    leased.add(i);
                } else {
                    plain.add(i);
                }
            }
            if (!plain.isEmpty()) {
                try (Sql.Call call = tx.call(createQuietly)) {
                    for (int i : plain) {
                        withAttributes(bindTurn(bindRun(call, runs.get(i)), runs.get(i)), runs.get(i))
                                .set("events", events.get(i))
                                .set("link", firstLink(runs.get(i), events.get(i)))
                                .addBatch();
                    }
                    int[] counts = call.executeBatch();
                    for (int k = 0; k < plain.size(); k++) {
                        created[plain.get(k)] = counts[k];
                    }
                }
            }
            if (!leased.isEmpty()) {
                try (Sql.Call call = tx.call(createQuietlyLeased)) {
                    for (int i : leased) {
                        withAttributes(bindTurn(bindRun(call, runs.get(i)), runs.get(i)), runs.get(i))
                                .set("events", events.get(i))
                                .set("link", firstLink(runs.get(i), events.get(i)))
                                .set("token", tokens[i])
                                .set("owner", leases.owner())
                                .set("expires", Micros.of(leases.expires()))
                                .addBatch();
                    }
                    int[] counts = call.executeBatch();
                    for (int k = 0; k < leased.size(); k++) {
                        created[leased.get(k)] = counts[k];
                    }
                }
            }
        } catch (SQLException e) {
            if (!isDuplicateRun(e)) {
                throw e;
            }
            c.rollback(before);
            if (runs.size() > 1) {
                for (int i = 0; i < runs.size(); i++) {
                    createIn(tx, List.of(runs.get(i)), List.of(events.get(i)), leases);
                }
            }
            return; // a run of one: the run exists, created elsewhere
        }
        c.releaseSavepoint(before);
        for (int i = 0; i < runs.size(); i++) {
            if (created[i] == 0) {
                continue;
            }
            if (tokens[i] != null) {
                leases.leased(runs.get(i), tokens[i]);
            } else {
                tx.wakeAt(Micros.truncate(runs.get(i).availableAt()));
            }
        }
    }

    /**
     * The appends with their records' links made here, with the key the database never sees: each over its run's head
     * as the write finds it, locked (in run id order, as every batch locks), or over the link of the run's append
     * before it in the batch. An append the statement then refuses leaves its run's later appends refused as well (they
     * expect the log it would have made), so no link of a refused record is ever written.
     */
    private List<EncodedAppend> linked(Tx tx, List<EncodedAppend> encoded) throws SQLException {
        Map<String, byte[]> head = new HashMap<>();
        String[] ids = encoded.stream().map(e -> e.append().runId()).distinct().toArray(String[]::new);
        tx.call(heads).set("ids", ids).each(rs -> head.put(rs.getString(1), rs.getBytes(2)));
        List<EncodedAppend> out = new ArrayList<>(encoded.size());
        for (EncodedAppend e : encoded) {
            if (e.events() == null) {
                out.add(e);
                continue;
            }
            byte[] link = e.link(head.get(e.append().runId()), chainKey);
            head.put(e.append().runId(), link);
            out.add(e.withLink(link));
        }
        return out;
    }

    /** Binds the run's search attributes, which the statement indexes as it creates the run: {@code :attrNames}, {@code :attrValues}. */
    private static Sql.Call withAttributes(Sql.Call call, NewRun run) throws SQLException {
        Map<String, String> attributes = SearchValues.encode(run.searchAttributes());
        return call.set("attrNames", attributes.keySet().toArray(String[]::new))
                .set("attrValues", attributes.values().toArray(String[]::new));
    }

    /** A batch's failure, or the statement's within it, that is another transaction's run of the same id. */
    private boolean isDuplicateRun(SQLException e) {
        for (SQLException s = e; s != null; s = s.getNextException()) {
            if (SqlFailures.isDuplicateKey(s, database.tableName("runs"))) {
                return true;
            }
        }
        return false;
    }

    /** Only a keyed chain's records are hashed here: the append statement hashes the others itself. */
    @Override
    protected boolean digestsBeforeWrite() {
        return chainKey != null;
    }

    /**
     * Appends to different runs without effects on other runs: one self-committing statement. Otherwise one
     * transaction: the rows of every run concerned held first, in id order, then the appends (a statement per round
     * of a run's pipelined appends), then the effects of those that went through.
     */
    @Override
    protected List<AppendResult> append(List<EncodedAppend> encoded, String subject, StartLeases leases) {
        boolean effects = EncodedAppend.anyEffects(encoded);
        boolean searched = EncodedAppend.anySearchChanges(encoded);
        if (!effects && !searched && chainKey == null && AppendStatement.eachRunOnce(encoded)) {
            return database.autocommit("append", subject, tx -> oneStatement.apply(tx, encoded, clock.instant()));
        }
        return db.write("append", subject, tx -> {
            if (effects) {
                lockForEffects(tx, encoded);
            }
            List<EncodedAppend> written = chainKey == null ? encoded : linked(tx, encoded);
            List<AppendResult> results = oneStatement.apply(tx, written, clock.instant());
            if (searched) {
                indexSearch(tx, encoded, results);
            }
            if (effects) {
                applyEffects(tx, encoded, results, leases);
            }
            return results;
        });
    }
}
