package io.worldflow.runtime.internal;

import io.worldflow.QueueInfo;
import io.worldflow.QueueSpec;
import io.worldflow.RunInfo;
import io.worldflow.WorldflowException;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.StoredQueue;
import io.worldflow.spi.TaskQueue.WaitingTurn;
import io.worldflow.spi.World;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;

/**
 * Queues with limits. A run started in one waits with its first turn in the queue's waiting queue (a name no worker
 * leases from); a worker that serves the queue admits waiting runs in rounds: it reads the queue's state, decides
 * ({@link Admission}), stores the new state by compare and set, and then moves the admitted runs' turns to the queue.
 * A run holds its place until it ends; the worker that ends it gives the place back in its next round, and a look at
 * long-held places now and then ({@link #audit}) gives back those of runs that ended elsewhere unnoticed (a worker
 * killed between a run's end and its next round) and moves again a turn whose move was lost.
 */
public final class QueueRunner {

    private static final Logger log = LoggerFactory.getLogger(QueueRunner.class);

    /** Appended to a queue's name for the queue its runs wait in: a control character, which no queue name has. */
    static final String WAITING = "\u001fwaiting";

    /** How many waiting runs a round looks at. */
    static final int WINDOW = 500;

    /**
     * How far ahead of their starts a worker admits runs of a rate-limited queue ({@link Admission.Ahead}): longer than
     * the rounds that a loaded world slows most, short enough that the slots held for the runs are not missed.
     */
    static final Duration AHEAD = Duration.ofMillis(400);

    /** How long a queue's limits read from the world are used before they are read again. */
    static final Duration FRESH = Duration.ofSeconds(1);

    /** A place held this long is looked at by the audit. */
    static final Duration AUDIT_AFTER = Duration.ofSeconds(15);

    private static final int ATTEMPTS = 8;

    private final World world;
    private final InstantSource clock;
    private final boolean declaredOnly;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> ended = new ConcurrentHashMap<>();
    private final DedupClaims dedup;
    private volatile Runnable poke = () -> {};
    private volatile Mover mover;
    private volatile IntSupplier aheadRoom = () -> 0;

    /** How admitted runs' turns reach their queue. */
    @FunctionalInterface
    interface Mover {
        /**
         * Moves the turns of {@code runIds} from queue {@code from} to {@code to} {@code at} (now); those in
         * {@code later} are not to begin before the instant it gives them.
         */
        void move(List<String> runIds, String from, String to, Instant at, Map<String, Instant> later);
    }

    /** A queue's state as last read, or none, and when it was read (by the clock of the process, in nanoseconds). */
    private record Cached(Optional<QueueBody> body, long readAt) {}

    /** @param declaredOnly whether a run may start only in a queue stored in the world */
    public QueueRunner(World world, InstantSource clock, boolean declaredOnly) {
        this.world = world;
        this.clock = clock;
        this.declaredOnly = declaredOnly;
        this.dedup = new DedupClaims(world, clock);
        this.mover = (runIds, from, to, at, later) -> world.taskQueue().move(runIds, from, to, at);
    }

    static String waitingQueue(String queue) {
        return queue + WAITING;
    }

    /**
     * How the turns of the runs admitted in this process reach their queue: the worker of this process moves them and
     * leases those it has room for ({@link LeasingWrites#moveAdmitted}); it holds up to {@code room} runs admitted ahead
     * of their starts, and begins each at its start.
     */
    void movedBy(Mover value, IntSupplier room) {
        this.mover = value;
        this.aheadRoom = room;
    }

    /** Who admits runs in this process: told when there may be runs to admit. */
    void admittedBy(Runnable value) {
        this.poke = value;
    }

    // ---------------------------------------------------------------- limits

    /** Stores the queue's limits as set by {@code who}, keeping who holds its places. */
    public QueueSpec define(QueueSpec spec, String who) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Instant now = clock.instant();
            Optional<StoredQueue> stored = world.queues().get(spec.name());
            boolean written;
            QueueBody body;
            if (stored.isEmpty()) {
                body = QueueBody.of(spec).withSpec(spec, who, now);
                written = world.queues().create(new StoredQueue(spec.name(), body.encode(), 1, now));
            } else {
                QueueBody was = decode(stored.get());
                if (was.spec().equals(spec) && was.changedBy() != null) {
                    // the same limits again (an application declaring its queues at each start): nothing changes, and
                    // the queue keeps who set them and when
                    remember(spec.name(), was);
                    poke.run();
                    return spec;
                }
                body = was.withSpec(spec, who, now);
                written = world.queues().replace(stored.get().next(body.encode(), now));
            }
            if (written) {
                log.info("queue '{}' limits set by {}: {}", spec.name(), who, spec);
                remember(spec.name(), body);
                poke.run(); // looser limits may admit runs now
                return spec;
            }
        }
        throw new WorldflowException("queue '" + spec.name() + "' is being written by others; try again");
    }

    /** The queue's limits as stored in the world now. */
    public Optional<QueueSpec> spec(String name) {
        return read(name).map(QueueBody::spec);
    }

    public List<QueueSpec> list() {
        List<QueueSpec> specs = new ArrayList<>();
        String after = DedupClaims.AFTER_ALL;
        while (true) {
            List<StoredQueue> page = world.queues().list(after, 100);
            for (StoredQueue q : page) {
                specs.add(decode(q).spec());
            }
            if (page.size() < 100) {
                return specs;
            }
            after = page.getLast().name();
        }
    }

    public Optional<QueueInfo> describe(String name) {
        Optional<StoredQueue> stored = world.queues().get(name);
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        QueueBody body = decode(stored.get());
        Instant now = clock.instant();
        List<WaitingTurn> waiting = world.taskQueue().waiting(waitingQueue(name), QueueInfo.COUNT_LIMIT);
        int throttled = (int)
                waiting.stream().filter(w -> !w.availableAt().isAfter(now)).count();
        return Optional.of(new QueueInfo(
                body.spec(),
                waiting.size(),
                body.admitted().size(),
                throttled,
                stored.get().updatedAt(),
                body.changedBy(),
                body.changedAt()));
    }

    private Optional<QueueBody> read(String name) {
        long startedAt = System.nanoTime();
        Optional<QueueBody> body = world.queues().get(name).map(QueueRunner::decode);
        install(name, new Cached(body, startedAt));
        return body;
    }

    private void remember(String name, QueueBody body) {
        install(name, new Cached(Optional.of(body), System.nanoTime()));
    }

    /**
     * Keeps the newer of two views of a queue: a read that began before this process wrote the queue (a define, a round)
     * must not put back what the queue was before the write.
     */
    private void install(String name, Cached fresh) {
        cache.merge(name, fresh, (old, now) -> old.readAt() - now.readAt() > 0 ? old : now);
    }

    /** The queue's state as read at most {@link #FRESH} ago. */
    private Optional<QueueBody> cached(String name) {
        Cached c = cache.get(name);
        if (c != null && System.nanoTime() - c.readAt() < FRESH.toNanos()) {
            return c.body();
        }
        return read(name);
    }

    /**
     * The queue's state as last read, however long ago, or read now the first time: for a worker's hot paths (leasing,
     * a run's end), which must not wait on the world; the admission loop reads the queues a worker serves at least
     * every {@link #FRESH} ({@link #hasLimits}), which keeps these views fresh.
     */
    private Optional<QueueBody> known(String name) {
        Cached c = cache.get(name);
        return c != null ? c.body() : read(name);
    }

    private static QueueBody decode(StoredQueue q) {
        return QueueBody.decode(q.name(), q.body());
    }

    // ---------------------------------------------------------------- runs

    /**
     * The run as it is to be created: waiting for admission when its queue has a limit for it (a limit across workers,
     * or an ordering key, which makes the queue keep order even where it stores no limits).
     *
     * @throws IllegalArgumentException when queues must be declared and the run's queue is not
     */
    public NewRun place(NewRun run, String key) {
        Optional<QueueBody> body = cached(run.queue());
        if (body.isEmpty() && declaredOnly) {
            throw new IllegalArgumentException("queue '" + run.queue() + "' is not declared, and runs may start only in"
                    + " declared queues (worldflow.queues.declared-only)");
        }
        if (body.isEmpty() && key != null) {
            // a key keeps order in any queue: one without limits of its own is stored without any
            body = Optional.of(QueueBody.of(QueueSpec.named(run.queue())));
            world.queues().create(new StoredQueue(run.queue(), body.get().encode(), 1, clock.instant()));
            remember(run.queue(), body.get());
        }
        if (body.isEmpty() || (key == null && !body.get().spec().limitsEveryRun())) {
            return run;
        }
        return run.waitingIn(waitingQueue(run.queue()), key);
    }

    /**
     * Takes the deduplication id in the queue for the run about to start.
     *
     * @return the active run that holds it, or empty when the run may start
     */
    public Optional<String> claim(String queue, String dedupId, String runId) {
        return dedup.claim(queue, dedupId, runId);
    }

    /** A run created waiting: someone serving its queue admits it. */
    public void created(NewRun run) {
        if (run.waits()) {
            poke.run();
        }
    }

    /**
     * A run of this process ended: its place, if it holds one, is given back in the next round, at once where a place
     * may hold a run back (a concurrency limit, an ordering key). Under a rate limit alone, places only count runs in
     * flight, and the rounds the limit brings anyway give them back: a round per run's end would cost the world four
     * calls a run.
     */
    void ended(String runId, String queue) {
        Optional<QueueBody> body = known(queue);
        if (body.isPresent()) {
            ended.computeIfAbsent(queue, q -> ConcurrentHashMap.newKeySet()).add(runId);
            QueueSpec spec = body.get().spec();
            if (spec.rateLimit() == null || spec.concurrency() > 0 || keyed(body.get(), runId)) {
                poke.run();
            }
        }
    }

    /** Whether the run's place, as last read here, has an ordering key, or is not known here yet. */
    private static boolean keyed(QueueBody body, String runId) {
        for (QueueBody.Place p : body.admitted()) {
            if (p.run().equals(runId)) {
                return p.key() != null;
            }
        }
        return true;
    }

    /** How many turns of the queue one worker may execute at once; 0 for no limit. */
    int workerLimit(String queue) {
        return known(queue).map(b -> b.spec().workerConcurrency()).orElse(0);
    }

    /** Whether a worker should admit runs of this queue: it stores limits. */
    boolean hasLimits(String queue) {
        return cached(queue).isPresent();
    }

    /**
     * One round of admission.
     *
     * @return when the rate limit lets the next run start, while that is to come, or null
     */
    Instant admit(String name) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Optional<StoredQueue> stored = world.queues().get(name);
            if (stored.isEmpty()) {
                return null;
            }
            QueueBody body = decode(stored.get());
            Set<String> endedHere = Set.copyOf(ended.getOrDefault(name, Set.of()));
            Instant now = clock.instant();
            Admission.Ahead ahead = new Admission.Ahead(AHEAD, aheadRoom.getAsInt());
            int room = Admission.room(body, endedHere, now, ahead);
            if (room == 0 && endedHere.isEmpty()) {
                return Admission.nextStart(body, now, ahead); // full, or the rate limit's next start is to come
            }
            // the next runs in line, and some beyond them in case keys hold some back
            List<WaitingTurn> waiting =
                    room == 0 ? List.of() : world.taskQueue().waiting(waitingQueue(name), window(room));
            Admission.Decision d = Admission.decide(body, waiting, endedHere, now, ahead);
            if (d.admit().size() < room && waiting.size() == window(room) && waiting.size() < WINDOW) {
                // keys at their limit held back the runs read: look further down the line
                waiting = world.taskQueue().waiting(waitingQueue(name), WINDOW);
                d = Admission.decide(body, waiting, endedHere, now, ahead);
            }
            if (d.next() != null) {
                if (!world.queues().replace(stored.get().next(d.next().encode(), now))) {
                    continue; // another worker's round came first: decide again from what it wrote
                }
                remember(name, d.next());
            }
            if (!endedHere.isEmpty()) {
                ended.get(name).removeAll(endedHere);
            }
            if (!d.admit().isEmpty()) {
                mover.move(d.admit(), waitingQueue(name), name, now, d.later());
            }
            // a round that only gave places back read no waiting runs: the rate limit's next start is still to come
            return d.retryAt() != null
                    ? d.retryAt()
                    : Admission.nextStart(d.next() != null ? d.next() : body, now, ahead);
        }
        log.debug("queue {}: admission lost {} races in a row; trying again later", name, ATTEMPTS);
        return null;
    }

    /**
     * When a run admitted to a rate-limited queue may begin, when its first turn is delivered again before it began (the
     * worker that held it died, or handed it back): at its own start when that is still to come; when its start has
     * passed, at the rate limit's next one, which it takes in place of the start it missed. Begun at once instead, it
     * would start beside the runs admitted since, and a worker killed while holding runs admitted ahead would release
     * them all at once when their leases lapse.
     *
     * @return when it may begin, or null for at once (no rate limit, no place held for it, or a start that is now)
     */
    Instant redeliveredStart(String queue, String runId) {
        if (known(queue).map(b -> b.spec().rateLimit() == null).orElse(true)) {
            return null;
        }
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Optional<StoredQueue> stored = world.queues().get(queue);
            if (stored.isEmpty()) {
                return null;
            }
            Instant now = clock.instant();
            Admission.Restart r = Admission.restart(decode(stored.get()), runId, now);
            if (r.next() == null) {
                return later(r.start(), now);
            }
            if (world.queues().replace(stored.get().next(r.next().encode(), now))) {
                remember(queue, r.next());
                log.info(
                        "run {} of queue {} was delivered again after its start {} passed: it starts at {}",
                        runId,
                        queue,
                        r.missed(),
                        r.start());
                return later(r.start(), now);
            }
        }
        log.debug("queue {}: a new start for run {} lost {} races in a row; it begins now", queue, runId, ATTEMPTS);
        return null;
    }

    /** {@code start} when it is still to come, else null (at once). */
    private static Instant later(Instant start, Instant now) {
        return start != null && start.isAfter(now) ? start : null;
    }

    /** How many waiting runs a round reads to admit up to {@code room}. */
    static int window(int room) {
        return (int) Math.min(WINDOW, 2L * room + 32);
    }

    /**
     * Looks at the places held longer than {@link #AUDIT_AFTER}: a run that has ended (or is gone) gives its place back
     * in the next round; one that is still pending has its turn moved again, in case the move after its admission was
     * lost.
     */
    void audit(String name) {
        Optional<QueueBody> body = read(name);
        if (body.isEmpty()) {
            return;
        }
        Instant before = clock.instant().minus(AUDIT_AFTER);
        List<String> pending = new ArrayList<>();
        for (QueueBody.Place p : body.get().admitted()) {
            if (p.at().isAfter(before)) {
                continue;
            }
            Optional<RunInfo> run = world.runQueries().get(p.run());
            if (run.isEmpty() || run.get().status().isTerminal()) {
                ended.computeIfAbsent(name, q -> ConcurrentHashMap.newKeySet()).add(p.run());
            } else if (run.get().status() == io.worldflow.RunStatus.PENDING) {
                pending.add(p.run());
            }
        }
        if (!pending.isEmpty()) {
            world.taskQueue().move(pending, waitingQueue(name), name, clock.instant());
        }
    }
}
