package io.worldflow.world.postgres;

import io.worldflow.spi.DueNotifier;
import io.worldflow.spi.TaskQueue;
import io.worldflow.world.jdbc.Micros;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Hears what other processes make due and which runs they finish: a connection of its own (not from the
 * pool) that {@code LISTEN}s on the world's two channels, read by a thread of its own. It hands each
 * announced instant to the {@link DueNotifier} (whose thread calls the subscribers) and calls the end
 * listeners itself with each finished run's id. When the connection drops it reconnects with backoff, and
 * once listening again reports "due now" and "some runs ended", since notices sent meanwhile were missed.
 */
final class DueListener implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DueListener.class);
    private static final int POLL_MILLIS = 500;
    /** An idle connection is checked with a query this often, to notice one that died silently. */
    private static final long CHECK_IDLE_NANOS = TimeUnit.SECONDS.toNanos(30);

    private static final long FIRST_BACKOFF_MILLIS = 100;
    private static final long MAX_BACKOFF_MILLIS = 5_000;
    /** How long {@link #start} waits for the first LISTEN, so that a subscriber hears what follows it. */
    private static final long START_WAIT_MILLIS = 5_000;

    private final PgSettings settings;
    private final Connector connector;
    private final DueNotifier notifier;
    private final List<Consumer<String>> endListeners = new CopyOnWriteArrayList<>();
    private final InstantSource clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition listening = lock.newCondition();
    private Thread thread;
    private boolean isListening;
    private volatile boolean closed;
    /** The LISTEN connection while open, so that {@link #close} can cut a poll short. */
    private volatile Connection current;

    DueListener(PgSettings settings, Connector connector, DueNotifier notifier, InstantSource clock) {
        this.settings = settings;
        this.connector = connector;
        this.notifier = notifier;
        this.clock = clock;
    }

    /**
     * Starts listening unless already started, and waits (a few seconds at most) until the LISTEN is in
     * place. When the database cannot be reached the thread keeps trying in the background.
     */
    void start() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            if (thread == null) {
                thread = Thread.ofPlatform()
                        .daemon()
                        .name("worldflow-postgres-listen " + settings.schema())
                        .start(this::run);
            }
            long waitNanos = TimeUnit.MILLISECONDS.toNanos(START_WAIT_MILLIS);
            while (!isListening && !closed && waitNanos > 0) {
                waitNanos = listening.awaitNanos(waitNanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    /** Adds a listener of finished runs' ids and starts listening; closing the subscription removes it. */
    TaskQueue.Subscription subscribeEnded(Consumer<String> ended) {
        Consumer<String> entry = ended::accept; // one object per subscription, so close() removes only it
        endListeners.add(entry);
        start();
        return () -> endListeners.remove(entry);
    }

    /** Whether the LISTEN connection is up (for tests and diagnostics). */
    boolean isListening() {
        lock.lock();
        try {
            return isListening;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        Thread t;
        lock.lock();
        try {
            closed = true;
            listening.signalAll();
            t = thread;
        } finally {
            lock.unlock();
        }
        Connection c = current;
        if (c != null) {
            try {
                c.abort(Runnable::run); // the reader's poll ends at once instead of at its timeout
            } catch (SQLException | RuntimeException e) {
                log.debug("aborting the LISTEN connection failed", e);
            }
        }
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        long backoff = FIRST_BACKOFF_MILLIS;
        boolean lost = false;
        while (!closed) {
            try (Connection c = connector.connectForListening(Connector.MAX_CONNECT_SECONDS)) {
                current = c;
                if (closed) {
                    return;
                }
                try (Statement st = c.createStatement()) {
                    st.execute("LISTEN \"" + settings.channel() + "\"");
                    st.execute("LISTEN \"" + settings.endChannel() + "\"");
                }
                setListening(true);
                if (lost) {
                    log.info("postgres world: listening on {} again", settings.maskedUrl());
                    notifier.due(clock.instant()); // what was announced meanwhile was missed
                    ended("*");
                    lost = false;
                }
                backoff = FIRST_BACKOFF_MILLIS;
                listen(c);
            } catch (SQLException | RuntimeException e) {
                setListening(false);
                if (closed) {
                    return;
                }
                if (!lost) {
                    log.warn(
                            "postgres world: the LISTEN connection to {} failed ({}); reconnecting",
                            settings.maskedUrl(),
                            e.toString());
                    lost = true;
                }
                pause(backoff);
                backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
            }
        }
        setListening(false);
        current = null;
    }

    /** Reads notifications until closed or the connection fails. */
    private void listen(Connection c) throws SQLException {
        PGConnection pg = c.unwrap(PGConnection.class);
        String endChannel = settings.endChannel();
        long lastCheck = System.nanoTime();
        while (!closed) {
            PGNotification[] notifications = pg.getNotifications(POLL_MILLIS);
            if (notifications != null && notifications.length > 0) {
                Instant earliest = null;
                for (PGNotification n : notifications) {
                    if (endChannel.equals(n.getName())) {
                        endedRuns(n.getParameter());
                        continue;
                    }
                    Instant at = parse(n.getParameter());
                    if (earliest == null || at.isBefore(earliest)) {
                        earliest = at;
                    }
                }
                if (earliest != null) {
                    notifier.due(earliest);
                }
                lastCheck = System.nanoTime();
            } else if (System.nanoTime() - lastCheck > CHECK_IDLE_NANOS) {
                try (Statement st = c.createStatement()) {
                    st.execute("SELECT 1");
                }
                lastCheck = System.nanoTime();
            }
        }
    }

    /** An end notice's payload: finished run ids, one per line ({@code "*"}: some runs, unnamed). */
    private void endedRuns(String payload) {
        if (endListeners.isEmpty() || payload == null) {
            return;
        }
        for (String runId : payload.split("\n")) {
            if (!runId.isEmpty()) {
                ended(runId);
            }
        }
    }

    private void ended(String runId) {
        for (Consumer<String> listener : endListeners) {
            try {
                listener.accept(runId);
            } catch (RuntimeException e) {
                log.warn("a finished-run listener failed", e);
            }
        }
    }

    /** The announced instant (epoch microseconds); anything else counts as "due now". */
    private Instant parse(String payload) {
        try {
            return Micros.toInstant(Long.parseLong(payload.strip()));
        } catch (NumberFormatException | NullPointerException e) {
            return clock.instant();
        }
    }

    private void setListening(boolean value) {
        lock.lock();
        try {
            isListening = value;
            listening.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void pause(long millis) {
        lock.lock();
        try {
            long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
            while (!closed && nanos > 0) {
                nanos = listening.awaitNanos(nanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        } finally {
            lock.unlock();
        }
    }
}
