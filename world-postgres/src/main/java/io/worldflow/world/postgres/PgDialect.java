package io.worldflow.world.postgres;

import io.worldflow.RunStatus;
import io.worldflow.world.jdbc.RunFilter;
import io.worldflow.world.jdbc.SqlDialect;
import io.worldflow.world.jdbc.Tx;

import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * PostgreSQL's answers: tables qualified by the configured schema and prefix, a write's run row locked
 * {@code FOR UPDATE}, statuses found through the indexed {@code resting} column, and turns made due by
 * {@link TaskRows}, which announces them with {@code pg_notify}.
 */
final class PgDialect implements SqlDialect {

    /** The statuses {@code resting} leaves null: a run's work in flight. */
    private static final Set<RunStatus> IN_FLIGHT = EnumSet.of(RunStatus.PENDING, RunStatus.RUNNING);

    private final PgSettings settings;
    private final boolean utf8;
    private final TaskRows taskRows;

    /**
     * @param utf8 whether the database stores text as UTF-8, whose byte order (the C collation's) is code point
     *             order
     */
    PgDialect(PgSettings settings, boolean utf8) {
        this.settings = settings;
        this.utf8 = utf8;
        this.taskRows = new TaskRows(this, settings.channel());
    }

    TaskRows taskRows() {
        return taskRows;
    }

    @Override
    public String world() {
        return PostgresWorldProvider.NAME;
    }

    @Override
    public String table(String name) {
        return quote(settings.schema()) + "." + quote(settings.prefix() + name);
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    @Override
    public String lockRow() {
        return " FOR UPDATE";
    }

    @Override
    public boolean codePointOrder() {
        return utf8;
    }

    @Override
    public String inTexts(String param) {
        return " = ANY(CAST(" + param + " AS text[]))";
    }

    @Override
    public Object texts(Collection<String> values) {
        return values.toArray(String[]::new);
    }

    /**
     * A resting status (sleeping, waiting, ended) by {@code resting}, which is indexed; pending and running among
     * the runs in flight ({@code resting IS NULL}, an index range too) by {@code status}, which no index holds so
     * that its changes stay HOT.
     */
    @Override
    public String statusIn(List<RunStatus> statuses, RunFilter filter) {
        String[] resting = names(statuses, true);
        String[] inFlight = names(statuses, false);
        String restingIn = resting.length == 0 ? null : "resting = ANY(" + filter.param(resting) + ")";
        if (inFlight.length == 0) {
            return restingIn;
        }
        String inFlightIn = "resting IS NULL";
        if (inFlight.length < IN_FLIGHT.size()) { // all of them: the range alone
            inFlightIn += " AND status = ANY(" + filter.param(inFlight) + ")";
        }
        return restingIn == null ? inFlightIn : "(" + restingIn + " OR (" + inFlightIn + "))";
    }

    private static String[] names(List<RunStatus> statuses, boolean resting) {
        return statuses.stream()
                .filter(s -> resting != IN_FLIGHT.contains(s))
                .map(RunStatus::name)
                .toArray(String[]::new);
    }

    @Override
    public void makeDue(Tx tx, String runId, String queue, int priority, Instant at, Instant now) throws SQLException {
        taskRows.makeDue(tx, runId, queue, priority, at, now);
    }
}
