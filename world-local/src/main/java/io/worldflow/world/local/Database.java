package io.worldflow.world.local;

import io.worldflow.WorldException;
import io.worldflow.spi.DueNotifier;
import io.worldflow.world.jdbc.Failures;
import io.worldflow.world.jdbc.SqlDatabase;
import io.worldflow.world.jdbc.SqlDialect;
import io.worldflow.world.jdbc.SqlWork;
import io.worldflow.world.jdbc.Tx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The SQLite file: one writer connection behind a lock, through which every write transaction passes,
 * and a small pool of read connections that WAL lets run beside it. Owns the file's lock.
 */
final class Database implements SqlDatabase, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Database.class);
    private static final int READERS = 4;
    /** Page cache per connection, in KiB. */
    private static final int CACHE_KIB = 16 * 1024;

    private final LocalSettings settings;
    private final FileOwnership ownership;
    private final SqlSession writer;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final BlockingQueue<SqlSession> readers;
    private final DueNotifier notifier;
    private final int schemaVersion;
    private volatile boolean closed;

    private Database(
            LocalSettings settings,
            FileOwnership ownership,
            SqlSession writer,
            List<SqlSession> readers,
            DueNotifier notifier,
            int schemaVersion) {
        this.settings = settings;
        this.ownership = ownership;
        this.writer = writer;
        this.readers = new ArrayBlockingQueue<>(readers.size(), false, readers);
        this.notifier = notifier;
        this.schemaVersion = schemaVersion;
    }

    /**
     * Takes the file's lock, opens the connections and migrates the schema.
     *
     * @throws WorldException when the file is owned by another process, is not a usable SQLite database,
     *                        or has a newer schema ({@link io.worldflow.SchemaVersionException})
     */
    static Database open(LocalSettings settings, InstantSource clock, DueNotifier notifier) {
        Path path = settings.path();
        refuseForeign(path);
        createParent(path);
        FileOwnership ownership = FileOwnership.acquire(path, settings.lockFile());
        List<SqlSession> opened = new ArrayList<>();
        try {
            SqlSession writer = connect(settings, false);
            opened.add(writer);
            int version = Migrations.apply(writer.connection(), path, clock);
            List<SqlSession> readers = new ArrayList<>();
            for (int i = 0; i < READERS; i++) {
                SqlSession reader = connect(settings, true);
                opened.add(reader);
                readers.add(reader);
            }
            return new Database(settings, ownership, writer, readers, notifier, version);
        } catch (SQLException | RuntimeException e) {
            opened.forEach(SqlSession::close);
            ownership.close();
            if (e instanceof WorldException we) {
                throw we;
            }
            if (e instanceof SQLException sql && isBusy(sql)) {
                throw failure("open", null, path, sql);
            }
            throw new WorldException(
                    "local world: cannot use " + path + " (not a SQLite database, or damaged): " + e.getMessage(),
                    false,
                    e);
        }
    }

    @Override
    public SqlDialect dialect() {
        return LocalDialect.INSTANCE;
    }

    Path path() {
        return settings.path();
    }

    int schemaVersion() {
        return schemaVersion;
    }

    /**
     * Runs {@code work} in one write transaction: committed when it returns, rolled back when it throws.
     * Once committed, subscribers hear of the earliest due time it noted.
     *
     * @param subject the run concerned, for error messages ({@link Failures#run}), or null
     */
    @Override
    public <T> T write(String operation, String subject, SqlWork<T> work) {
        return write(operation, subject, false, work);
    }

    /**
     * Like {@link #write}, for a write whose loss in a crash is harmless because the next process to open
     * the file undoes it anyway (a lease or its extension: {@link LocalWorld} drops every lease on opening). With
     * {@code synchronous=FULL} it commits without waiting for the disk; it becomes durable with the next
     * ordinary write, whose sync covers the whole WAL before it, so the order of commits is kept.
     */
    <T> T writeLease(String operation, String subject, SqlWork<T> work) {
        return write(operation, subject, settings.synchronous() == LocalSettings.Synchronous.FULL, work);
    }

    private <T> T write(String operation, String subject, boolean unsynced, SqlWork<T> work) {
        Tx tx = writer.tx();
        T result;
        writeLock.lock();
        try {
            ensureOpen();
            try {
                if (unsynced) {
                    writer.synchronous("NORMAL");
                }
                try {
                    writer.begin();
                    result = work.run(tx);
                    writer.commit();
                } finally {
                    if (unsynced) {
                        writer.synchronous("FULL");
                    }
                }
            } catch (SQLException e) {
                writer.rollback(e);
                throw failure(operation, subject, settings.path(), e);
            } catch (RuntimeException | Error e) {
                writer.rollback(e);
                throw e;
            }
        } finally {
            writeLock.unlock();
        }
        if (tx.wake() != null) {
            notifier.due(tx.wake());
        }
        return result;
    }

    /** Runs {@code work} on a read connection, beside the writer and other readers. */
    @Override
    public <T> T read(String operation, String subject, SqlWork<T> work) {
        ensureOpen();
        SqlSession reader = borrow(operation, subject);
        try {
            ensureOpen();
            return work.run(reader.tx());
        } catch (SQLException e) {
            throw failure(operation, subject, settings.path(), e);
        } finally {
            readers.add(reader);
        }
    }

    /** Closes the connections (waiting for reads in flight) and releases the file. Idempotent. */
    @Override
    public void close() {
        writeLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            try {
                closeReaders();
            } finally {
                writer.close(); // the last connection: SQLite checkpoints the WAL into the file
                ownership.close();
            }
        } finally {
            writeLock.unlock();
        }
    }

    private void closeReaders() {
        long waitMillis = settings.busyTimeout().toMillis() + 1000;
        try {
            for (int i = 0; i < READERS; i++) {
                SqlSession reader = readers.poll(waitMillis, TimeUnit.MILLISECONDS);
                if (reader == null) {
                    log.warn("a read on {} did not finish in time; closing without it", settings.path());
                    return;
                }
                reader.close();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private SqlSession borrow(String operation, String subject) {
        try {
            SqlSession reader = readers.poll(settings.busyTimeout().toMillis(), TimeUnit.MILLISECONDS);
            if (reader == null) {
                throw new WorldException(
                        Failures.operation(LocalWorldProvider.NAME, operation, subject)
                                + " found no free read connection on " + settings.path() + " within "
                                + settings.busyTimeout(),
                        true,
                        null);
            }
            return reader;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorldException("local world: interrupted while waiting for a read connection", true, e);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new WorldException("local world on " + settings.path() + " is closed", false, null);
        }
    }

    /**
     * Refuses a file that holds another application's tables before anything touches it: opening it as a world would
     * take its lock (a lock file beside it) and switch it to write-ahead logging, an edit of the file it refuses.
     */
    private static void refuseForeign(Path path) {
        try {
            if (!java.nio.file.Files.isRegularFile(path) || java.nio.file.Files.size(path) == 0) {
                return;
            }
        } catch (java.io.IOException e) {
            return; // open() says what is wrong with it
        }
        SQLiteConfig look = new SQLiteConfig();
        look.setReadOnly(true);
        Optional<String> foreign;
        try (java.sql.Connection c = look.createConnection("jdbc:sqlite:" + path);
                java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery(
                        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")) {
            rs.next();
            foreign = rs.getInt(1) > 0 ? Optional.empty() : new Migrations(path).foreignTables(c);
        } catch (SQLException e) {
            return; // not a SQLite file, or locked: open() says so
        }
        if (foreign.isPresent()) {
            throw new WorldException(foreign.get(), false, null);
        }
    }

    static SqlSession connect(LocalSettings settings, boolean readOnly) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(
                switch (settings.synchronous()) {
                    case FULL -> SQLiteConfig.SynchronousMode.FULL;
                    case NORMAL -> SQLiteConfig.SynchronousMode.NORMAL;
                });
        config.setBusyTimeout(settings.busyTimeoutMillis());
        config.setTempStore(SQLiteConfig.TempStore.MEMORY);
        config.setCacheSize(-CACHE_KIB);
        // no statement here asks for generated keys; left on, the driver would match every statement's text
        // against a pattern and run a SELECT last_insert_rowid() after each INSERT
        config.setGetGeneratedKeys(false);
        if (!readOnly) {
            // writes begin their transactions with BEGIN IMMEDIATE themselves (SqlSession.begin); this makes a JDBC
            // transaction on the writer, the schema migration's, begin the same way
            config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        }
        SqlSession session = new SqlSession(config.createConnection("jdbc:sqlite:" + settings.path()));
        if (readOnly) {
            session.execute("PRAGMA query_only = 1");
        }
        return session;
    }

    private static void createParent(Path path) {
        try {
            Files.createDirectories(path.getParent());
        } catch (IOException e) {
            throw new WorldException("local world: cannot create the directory of " + path + ": " + e, false, e);
        }
    }

    /**
     * SQLite's exception as a {@link WorldException} that says what was being done and to which run; transient when
     * the database was busy.
     */
    private static WorldException failure(String operation, String subject, Path database, SQLException e) {
        boolean busy = isBusy(e);
        return new WorldException(
                Failures.failed(LocalWorldProvider.NAME, operation, subject, database.toString())
                        + (busy ? " (database busy, try again)" : "") + ": " + e.getMessage(),
                busy,
                e);
    }

    /** SQLITE_BUSY (5) or SQLITE_LOCKED (6), including their extended codes. */
    private static boolean isBusy(SQLException e) {
        int primary = e.getErrorCode() & 0xFF;
        return primary == 5 || primary == 6;
    }
}
