package io.worldflow.world.local;

import io.worldflow.format.ChainKey;
import io.worldflow.spi.DueNotifier;
import io.worldflow.spi.WorldContext;
import io.worldflow.world.jdbc.JdbcRunQueries;
import io.worldflow.world.jdbc.SqlWorld;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The local world: every facet over one {@link Database}. */
final class LocalWorld extends SqlWorld {

    private static final Logger log = LoggerFactory.getLogger(LocalWorld.class);

    private final Database db;
    private final DueNotifier notifier;

    /** SQLite runs in this process: the thread that waits for an append may as well make it. */
    private LocalWorld(Database db, WorldContext context, DueNotifier notifier) {
        super(
                new LocalEventLog(
                        db,
                        context.codec(),
                        context.clock(),
                        ChainKey.fromConfig(context.config()).orElse(null)),
                new LocalTaskQueue(db, context.clock(), notifier),
                new JdbcRunQueries(db, context.codec()),
                true);
        this.db = db;
        this.notifier = notifier;
    }

    /**
     * Opens the file and drops the leases a previous owner left: this process owns the file now, so whoever
     * held them is gone, and their runs are due again at once.
     */
    static LocalWorld open(WorldContext context) {
        LocalSettings settings = LocalSettings.from(context.config());
        DueNotifier notifier =
                new DueNotifier("worldflow-local-due " + settings.path().getFileName());
        Database db = Database.open(settings, context.clock(), notifier);
        try {
            int cleared = db.write(
                    "clear leases",
                    null,
                    tx -> LocalDialect.clearAllLeases(tx, context.clock().instant()));
            log.info(
                    "local world opened {} (schema version {}, synchronous {}{})",
                    settings.path(),
                    db.schemaVersion(),
                    settings.synchronous(),
                    cleared == 0 ? "" : ", " + cleared + " lease(s) of a previous process dropped");
            return new LocalWorld(db, context, notifier);
        } catch (RuntimeException e) {
            db.close();
            notifier.close();
            throw e;
        }
    }

    @Override
    public String name() {
        return LocalWorldProvider.NAME;
    }

    @Override
    public void close() {
        try {
            db.close();
        } finally {
            notifier.close();
        }
    }

    @Override
    public String toString() {
        return "LocalWorld[" + db.path() + "]";
    }
}
