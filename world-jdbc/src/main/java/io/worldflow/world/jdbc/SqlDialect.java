package io.worldflow.world.jdbc;

import io.worldflow.RunStatus;
import io.worldflow.spi.Lease;

import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a SQL world says its own way, for the SQL this layer writes once: where its tables are, how a write locks
 * the row of the run it aims at, how a run's status is filtered, and how a run is made due (each world keeps its
 * own queue of turns).
 */
public interface SqlDialect {

    /** The world's name, for messages ("local", "postgres"). */
    String world();

    /** The table {@code name} ({@code runs}, {@code tasks}, {@code signals}, …) as SQL must name it. */
    String table(String name);

    /**
     * {@code sql} with each table named in braces ({@code {runs}}, {@code {event_log}}, {@code {tasks}}, …) as
     * {@link #table} names it, so that a statement is written once for every schema and prefix.
     */
    default String tables(String sql) {
        return Pattern.compile("\\{([a-z_]+)}")
                .matcher(sql)
                .replaceAll(m -> Matcher.quoteReplacement(table(m.group(1))));
    }

    /**
     * What follows a {@code SELECT} of one run's row in a write, so that the row stays as read until the write
     * commits: {@code " FOR UPDATE"}, or {@code ""} where a single writer makes every write wait for the other.
     */
    String lockRow();

    /**
     * What follows a {@code SELECT} of rows that a write will delete, so that rows another transaction holds are passed
     * over rather than waited for: {@code " FOR UPDATE SKIP LOCKED"}, or {@code ""} where a single writer makes every
     * write wait for the other.
     */
    String skipLocked();

    /**
     * Whether text compares in code point order (UTF-8 bytes compared as bytes), which lets an id prefix bound
     * its index range from above as well.
     */
    boolean codePointOrder();

    /**
     * What follows a column to say that its value is one of the texts bound to the parameter {@code param} (such as
     * {@code :ids}) as {@link #texts} makes them.
     */
    String inTexts(String param);

    /** Texts as one parameter's value, for {@link #inTexts}. */
    Object texts(Collection<String> values);

    /** An expression that makes a new lease token in a statement, a different one for each row it writes. */
    String newLeaseToken();

    /**
     * An aggregate of the rows' {@code key} and {@code value} columns into a JSON object as text; null or {@code {}}
     * for no rows.
     */
    String jsonObjectAgg(String key, String value);

    /** The condition that a run's status is one of {@code statuses} (sorted, at least one). */
    default String statusIn(List<RunStatus> statuses, RunFilter filter) {
        return "status IN ("
                + String.join(
                        ", ", statuses.stream().map(s -> filter.param(s.name())).toList()) + ")";
    }

    /**
     * Makes an existing, unfinished run due at {@code at}, or keeps an earlier due time; a run whose turn is
     * leased gets its turn when the lease ends. Inside a write that holds the run's row.
     */
    void makeDue(Tx tx, String runId, String queue, int priority, Instant at, Instant now) throws SQLException;

    /**
     * Ends the turn {@code lease} holds, the run's next one due at {@code wakeAt} (null: none) or at a turn requested
     * meanwhile; a stale lease changes nothing.
     */
    void endTurn(Tx tx, Lease lease, Instant wakeAt) throws SQLException;

    /**
     * Where statements cost a round trip to a server: one statement that stores a signal ({@code :runId},
     * {@code :name}, {@code :json}, {@code :type}, {@code :sentAt}) unless its {@code :key} (or null) is one the run has
     * taken, records the key, and returns no rows, its count 1 when a keyed signal is stored; so that an append's many
     * signals go as one JDBC batch. Empty where the database is in this process, and each signal is stored by itself.
     */
    default Optional<String> storeSignalInBatch() {
        return Optional.empty();
    }
}
