package io.worldflow.world.postgres;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLWarning;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Vacuums the tasks table while turns churn through it. A turn that ends deletes its task or moves it to a later due
 * time, and each leaves its old version's entry in the index a lease reads; those entries sort before the turns due
 * now, so every lease steps over all of them until a vacuum removes them. Autovacuum looks at each database only once
 * a minute by default, and at a thousand turns a second a lease then steps over tens of thousands of entries: ten
 * times the work of a lease on a clean index, and a schedule's fires start tens of milliseconds late. So each process
 * vacuums the table itself after it leased {@link #TURNS} turns, no more often than every {@link #MIN_GAP}, and never
 * more than a twentieth of the time (the next waits twenty times as long as the last took): on a small table it takes
 * tens of milliseconds. {@code SKIP_LOCKED}: a vacuum of the table already under way, by autovacuum or another
 * process, is enough. A user that does not own the table is told so by the server with a warning; the process then
 * leaves the table to autovacuum, and says so once.
 */
final class TaskVacuum {

    private static final Logger log = LoggerFactory.getLogger(TaskVacuum.class);

    /** Turns leased by this process between two vacuums, at least. */
    static final int TURNS = 5_000;
    /** Time between two vacuums, at least. */
    static final Duration MIN_GAP = Duration.ofSeconds(5);
    /** The gap after a vacuum is at least this many times as long as it took. */
    private static final int SHARE = 20;
    /** The warning of a vacuum skipped because another holds the table; any other warning refuses this user. */
    private static final String LOCK_NOT_AVAILABLE = "55P03";

    private final Database db;
    private final String statement;
    private final int turns;
    private final Duration minGap;
    private final AtomicLong leased = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicLong vacuums = new AtomicLong();
    private volatile long notBefore = System.nanoTime();
    private volatile boolean enabled;

    /**
     * @param enabled false when the operator vacuums the table (configuration): this then does nothing
     */
    TaskVacuum(Database db, boolean enabled) {
        this(db, enabled, TURNS, MIN_GAP);
    }

    TaskVacuum(Database db, boolean enabled, int turns, Duration minGap) {
        this.db = db;
        this.statement = db.dialect().tables("VACUUM (SKIP_LOCKED) {tasks}");
        this.enabled = enabled;
        this.turns = turns;
        this.minGap = minGap;
    }

    /** Notes {@code count} turns leased; starts a vacuum, beside the caller, when one is due. */
    void leased(int count) {
        if (!enabled || count <= 0 || leased.addAndGet(count) < turns) {
            return;
        }
        if (System.nanoTime() - notBefore < 0 || !running.compareAndSet(false, true)) {
            return;
        }
        leased.set(0);
        Thread.ofVirtual().name("wf-task-vacuum").start(this::vacuum);
    }

    /** Vacuums done (tests). */
    long vacuums() {
        return vacuums.get();
    }

    /** Whether this process still vacuums the table. */
    boolean enabled() {
        return enabled;
    }

    private void vacuum() {
        long start = System.nanoTime();
        try {
            // VACUUM cannot run in a transaction: a self-committing connection of the pool
            db.autocommit("vacuuming the tasks table", null, tx -> {
                try (Statement s = tx.connection().createStatement()) {
                    s.execute(statement);
                    for (SQLWarning w = s.getWarnings(); w != null; w = w.getNextWarning()) {
                        if (!LOCK_NOT_AVAILABLE.equals(w.getSQLState())) {
                            enabled = false;
                            log.info(
                                    "the tasks table is left to autovacuum: vacuuming it here was refused ({})",
                                    w.getMessage());
                        }
                    }
                }
                return null;
            });
            vacuums.incrementAndGet();
        } catch (RuntimeException e) {
            // the world closed, or the database is away: the next churn tries again
            log.debug("vacuuming the tasks table failed: {}", e.toString());
        } finally {
            long took = System.nanoTime() - start;
            notBefore = System.nanoTime() + Math.max(minGap.toNanos(), SHARE * took);
            running.set(false);
        }
    }
}
