package io.worldflow.runtime;

import io.worldflow.RunInfo;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.SearchAttributes;
import io.worldflow.WorldflowException;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.format.EventFormat;
import io.worldflow.format.LogChain;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.PendingSignal;
import io.worldflow.spi.SearchValues;
import io.worldflow.spi.StoredLog;
import io.worldflow.spi.StoredRecord;
import io.worldflow.spi.World;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Copies runs from one world to another with everything that makes them go on there: each run's log record by record
 * as stored (so its hash chain comes out with the same links and head, which is how each copy is verified), its
 * projection, its pending signals, its hold and its cancellation request. A run goes on in the new world where it
 * stopped: its next turn there replays the copied log, a timer not yet due waits for its time, a copied signal is
 * received.
 *
 * <p>Safe to run again, and to resume after a crash: a run already whole in the target is left alone; one copied in
 * part goes on from its last copied record; pending signals are copied under keys, so never twice. A run whose turn
 * is under way in the source (RUNNING) is refused, or waited for; a run of the same id with another history in the
 * target is refused, never overwritten. No worker should serve the target's runs while they are copied, nor the
 * source's: stop them first.
 *
 * <pre>{@code
 * WorldMigration.Report report = WorldMigration.between(local, postgres).copy(RunQuery.all());
 * }</pre>
 */
public final class WorldMigration {

    /** How far a copy has got: runs looked at, copied (now whole in the target), already there, refused. */
    public record Progress(long examined, long copied, long alreadyThere, long refused) {}

    /** A run not copied, and why. */
    public record Refused(String runId, String why) {}

    /**
     * What a copy did.
     *
     * @param copied       runs written (whole, or the rest of a part copied before) and verified
     * @param alreadyThere runs whole in the target already, left alone
     * @param refused      runs not copied, each with its reason
     */
    public record Report(long copied, long alreadyThere, List<Refused> refused) {

        public Report {
            refused = List.copyOf(refused);
        }
    }

    private static final int DEFAULT_BATCH = 200;

    private final World from;
    private final World to;
    private final EventFormat format = new EventFormat();
    private int batch = DEFAULT_BATCH;
    private Duration waitForTurns = Duration.ZERO;
    private Consumer<Progress> progress = p -> {};

    private WorldMigration(World from, World to) {
        this.from = Objects.requireNonNull(from, "from");
        this.to = Objects.requireNonNull(to, "to");
        if (from == to) {
            throw new IllegalArgumentException("a migration copies from one world to another, not to itself");
        }
    }

    /** A migration from {@code from} to {@code to}, two worlds open in this process. */
    public static WorldMigration between(World from, World to) {
        return new WorldMigration(from, to);
    }

    /** How many runs are read, and written, at once (default 200). */
    public WorldMigration batch(int runs) {
        if (runs < 1 || runs > 1000) {
            throw new IllegalArgumentException("batch must be within 1..1000, was " + runs);
        }
        this.batch = runs;
        return this;
    }

    /** How long to wait for a run whose turn is under way in the source to end it, before it is refused (default 0). */
    public WorldMigration waitForTurns(Duration value) {
        if (value.isNegative()) {
            throw new IllegalArgumentException("waitForTurns must not be negative, was " + value);
        }
        this.waitForTurns = value;
        return this;
    }

    /** Told after every batch. */
    public WorldMigration onProgress(Consumer<Progress> listener) {
        this.progress = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * Copies the source's runs that {@code query} finds (all its pages).
     *
     * @throws io.worldflow.WorldException when either world fails; what was copied before stays, and a new copy goes on
     *                                     from there
     */
    public Report copy(RunQuery query) {
        long examined = 0;
        long copied = 0;
        long there = 0;
        List<Refused> refused = new ArrayList<>();
        String cursor = null;
        do {
            RunPage page = from.runQueries().list(query.withLimit(batch).withCursor(cursor));
            Batch b = new Batch();
            for (RunInfo info : page.runs()) {
                plan(info, b, refused);
            }
            b.write(refused);
            copied += b.copied;
            there += b.alreadyThere;
            examined += page.runs().size();
            progress.accept(new Progress(examined, copied, there, refused.size()));
            cursor = page.nextCursor();
        } while (cursor != null);
        return new Report(copied, there, refused);
    }

    /** One run to copy: its projection and log in the source, the next of its records to write, and whether to create it. */
    private static final class Plan {
        final RunInfo info;
        final StoredLog log;
        final boolean create;
        int next;

        Plan(RunInfo info, StoredLog log, int next, boolean create) {
            this.info = info;
            this.log = log;
            this.next = next;
            this.create = create;
        }

        String runId() {
            return info.runId();
        }
    }

    private final class Batch {
        final List<Plan> plans = new ArrayList<>();
        long copied;
        long alreadyThere;

        /**
         * Creates the new runs, then appends their records as stored, one record of each run per round (a run's
         * records go in order; the runs of a round go in one call), then finishes and verifies each.
         */
        void write(List<Refused> refused) {
            List<NewRun> creates = plans.stream()
                    .filter(p -> p.create)
                    .map(p -> newRun(p.info, p.log))
                    .toList();
            if (!creates.isEmpty()) {
                to.eventLog().createAll(creates);
            }
            List<Plan> going = new ArrayList<>(plans);
            while (true) {
                going.removeIf(p -> p.next >= p.log.records().size());
                if (going.isEmpty()) {
                    break;
                }
                List<Append> appends = new ArrayList<>();
                for (Plan p : going) {
                    StoredRecord r = p.log.records().get(p.next);
                    boolean last = p.next == p.log.records().size() - 1;
                    List<Event> events = format.decodeAll(p.runId(), r.seq(), r.text());
                    appends.add(new Append(p.runId(), r.seq(), events, last ? p.info.status() : RunStatus.RUNNING));
                }
                List<AppendResult> results = to.eventLog().append(appends);
                List<Plan> failed = new ArrayList<>();
                for (int i = 0; i < going.size(); i++) {
                    Plan p = going.get(i);
                    if (results.get(i).appended()) {
                        p.next++;
                    } else {
                        failed.add(p);
                        refused.add(new Refused(
                                p.runId(),
                                "the target's log changed while it was copied (length "
                                        + results.get(i).logLength() + "): is a worker serving the target?"));
                    }
                }
                going.removeAll(failed);
                plans.removeAll(failed);
            }
            for (Plan p : plans) {
                finish(p);
                Optional<String> problem = verify(p);
                if (problem.isPresent()) {
                    refused.add(new Refused(p.runId(), problem.get()));
                } else {
                    copied++;
                }
            }
        }
    }

    /** Decides what to do with one run: copy it whole, go on with a part copied before, leave it, or refuse it. */
    private void plan(RunInfo info, Batch b, List<Refused> refused) {
        RunInfo run = info.status() == RunStatus.RUNNING ? awaitTurnEnd(info) : info;
        if (run.status() == RunStatus.RUNNING) {
            refused.add(new Refused(
                    run.runId(),
                    "its turn is under way in the source (RUNNING): stop the source's"
                            + " workers, or wait for the turn to end"));
            return;
        }
        StoredLog log = from.eventLog().storedLog(run.runId());
        if (log.records().isEmpty() || log.records().getFirst().seq() != 0) {
            refused.add(new Refused(run.runId(), "its log in the source is not whole from seq 0"));
            return;
        }
        Optional<RunInfo> existing = to.runQueries().get(run.runId());
        if (existing.isEmpty()) {
            b.plans.add(new Plan(run, log, 1, true));
            return;
        }
        StoredLog there = to.eventLog().storedLog(run.runId());
        int prefix = commonPrefix(log, there);
        if (prefix < 0) {
            refused.add(new Refused(run.runId(), "a run of that id with another history exists in the target"));
        } else if (prefix == log.records().size()) {
            finish(new Plan(run, log, prefix, false));
            b.alreadyThere++;
        } else {
            b.plans.add(new Plan(run, log, prefix, false));
        }
    }

    /** How many of the source's records the target holds as they are (-1 when it holds something else). */
    private static int commonPrefix(StoredLog source, StoredLog target) {
        List<StoredRecord> a = source.records();
        List<StoredRecord> b = target.records();
        if (b.size() > a.size()) {
            return -1;
        }
        for (int i = 0; i < b.size(); i++) {
            StoredRecord x = a.get(i);
            StoredRecord y = b.get(i);
            if (x.seq() != y.seq() || x.lastSeq() != y.lastSeq() || !x.text().equals(y.text())) {
                return -1;
            }
        }
        return b.size();
    }

    private RunInfo awaitTurnEnd(RunInfo info) {
        long end = System.nanoTime() + waitForTurns.toNanos();
        RunInfo now = info;
        while (now.status() == RunStatus.RUNNING && System.nanoTime() < end) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new WorldflowException("interrupted while waiting for run '" + info.runId() + "'", e);
            }
            now = from.runQueries().get(info.runId()).orElse(now);
        }
        return now;
    }

    /** The run as the target creates it: the same first event as in the source. */
    private NewRun newRun(RunInfo info, StoredLog log) {
        StoredRecord first = log.records().getFirst();
        WorkflowStarted s = (WorkflowStarted)
                format.decodeAll(info.runId(), 0, first.text()).getFirst();
        SearchAttributes attributes = SearchValues.apply(
                SearchAttributes.empty(), s.searchAttributes() == null ? List.of() : s.searchAttributes());
        return new NewRun(
                info.runId(),
                s.workflow(),
                s.input(),
                s.at(),
                info.availableAt() != null ? info.availableAt() : s.at(),
                s.deadline(),
                info.queue(),
                info.priority(),
                s.parent(),
                s.continuedFrom(),
                s.schedule(),
                s.scheduledFor(),
                info.queue(),
                null,
                s.actor(),
                attributes,
                s.traceParent(),
                s.traceState());
    }

    /**
     * What the log does not carry, made so in the target: the run's pending signals (each under a key of its id in
     * the source, so a copy made again sends none twice), its cancellation request and its hold.
     */
    private void finish(Plan p) {
        RunInfo info = p.info;
        if (info.isTerminal()) {
            return;
        }
        for (PendingSignal s : from.signals().pending(info.runId())) {
            to.signals().send(info.runId(), s.name(), s.payload(), "migrated:" + s.id(), s.actor());
        }
        RunInfo.CancelRequest cancel = info.cancelRequest();
        if (cancel != null) {
            to.eventLog().requestCancel(info.runId(), cancel.reason(), cancel.terminate(), cancel.actor());
        }
        if (info.held() != null) {
            to.eventLog().hold(info.runId(), info.held());
        }
    }

    /** The copy's log and status against the source's: the same records, chained to the same head. */
    private Optional<String> verify(Plan p) {
        String id = p.runId();
        StoredLog source = p.log;
        StoredLog target = to.eventLog().storedLog(id);
        if (target.logLength() != source.logLength()
                || commonPrefix(source, target) != source.records().size()) {
            return Optional.of(
                    "its copy holds " + target.logLength() + " events, not the source's " + source.logLength());
        }
        if (source.head() != null && !LogChain.same(source.head(), target.head())) {
            return Optional.of("its copy's hash chain ends at another head than the source's");
        }
        RunStatus status = to.runQueries().get(id).map(RunInfo::status).orElse(null);
        if (status != p.info.status()) {
            return Optional.of("its copy is " + status + ", the source's run " + p.info.status());
        }
        return Optional.empty();
    }
}
