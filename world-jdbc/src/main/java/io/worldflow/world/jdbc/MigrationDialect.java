package io.worldflow.world.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * What {@link MigrationRunner} asks of one database: the answers that differ between SQL dialects. An instance
 * describes one place (a SQLite file; a PostgreSQL schema with a table prefix). The methods that take a connection
 * are called on the runner's, inside its transaction.
 */
public interface MigrationDialect {

    /** The place as messages name it (a file's path, a URL with schema and prefix); errors start with it. */
    String place();

    /**
     * The statement taking the lock, released when the transaction ends, that makes processes starting together
     * migrate one after another; by default none (null), for a database that belongs to one process.
     */
    default String lockStatement() {
        return null;
    }

    /** Creates the namespace the tables go in when it is missing; by default nothing, for a database without one. */
    default void createPlace(Connection c) throws SQLException {}

    /** The version table's name as statements refer to it, qualified where the dialect needs it. */
    String versionTable();

    /**
     * The statement creating {@link #versionTable()}: {@code version} (integer primary key), {@code description}
     * (text, the script's name) and {@code applied_at} (64-bit integer, epoch microseconds, see {@link Micros}).
     */
    default String versionTableDdl() {
        return "CREATE TABLE " + versionTable() + " (\n    version     integer NOT NULL PRIMARY KEY,\n"
                + "    description text    NOT NULL,\n    applied_at  bigint  NOT NULL\n)";
    }

    /** Whether {@link #versionTable()} exists. */
    boolean hasVersionTable(Connection c) throws SQLException;

    /**
     * Asked when the version table is missing: the message refusing the place when it holds tables of something
     * else, or empty when the world's tables may be created in it.
     */
    Optional<String> foreignTables(Connection c) throws SQLException;

    /** The script with its placeholders (such as {@code ${schema}} and {@code ${prefix}}) replaced; by default as is. */
    default String render(String script) {
        return script;
    }

    /**
     * Whether the failure came from another process creating the same namespace at the same moment, which a
     * second attempt resolves; by default never.
     */
    default boolean raced(SQLException e) {
        return false;
    }
}
