package io.worldflow.testing.internal;

import io.worldflow.RunInfo;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.runtime.ManualClock;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.TaskQueue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Moves a test world's clock by itself to the next time a run is due, once every unfinished run only sleeps: so a
 * workflow that sleeps for a month ends in milliseconds. It never skips while anything else could happen first: while
 * a run runs or is due, or while a run waits for a signal (the test decides whether the signal comes, or moves time to
 * its time limit itself). What it sees must hold on two looks in a row, a few milliseconds apart, with no event
 * written between them, so that a skip never races a turn that is just beginning.
 */
public final class TimeSkipper implements AutoCloseable {

    private static final long LOOK_MILLIS = 5;

    private final Worldflow wf;
    private final ManualClock clock;
    private final Thread thread;
    private volatile boolean stopped;

    public TimeSkipper(Worldflow wf, ManualClock clock) {
        this.wf = Objects.requireNonNull(wf, "wf");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.thread =
                Thread.ofPlatform().daemon().name("worldflow-time-skipper").unstarted(this::loop);
    }

    public void start() {
        thread.start();
    }

    private void loop() {
        Look previous = null;
        while (!stopped) {
            try {
                Thread.sleep(LOOK_MILLIS);
                Look now = look();
                if (now != null && now.equals(previous) && clock.instant().equals(now.at())) {
                    clock.set(now.due());
                    previous = null;
                } else {
                    previous = now;
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                previous = null; // the world is closing, or a read failed: look again
            }
        }
    }

    /** When every unfinished run sleeps: the earliest time one is due, as seen at {@code at}; else null. */
    private record Look(Instant at, Instant due, long events) {}

    private Look look() {
        Instant now = clock.instant();
        List<RunInfo> open = new ArrayList<>();
        RunQuery query = RunQuery.all()
                .withStatuses(RunStatus.PENDING, RunStatus.RUNNING, RunStatus.SLEEPING, RunStatus.WAITING)
                .withLimit(500);
        String cursor = null;
        do {
            RunPage page = wf.runs(query.withCursor(cursor));
            open.addAll(page.runs());
            cursor = page.nextCursor();
        } while (cursor != null);
        // when each run's next turn is due: its turn waiting in its queue, not leased by a worker
        Map<String, Instant> turns = new HashMap<>();
        for (String queue : open.stream().map(RunInfo::queue).collect(Collectors.toSet())) {
            for (TaskQueue.WaitingTurn t : wf.world().taskQueue().waiting(queue, 1000)) {
                turns.put(t.runId(), t.availableAt());
            }
        }
        Set<String> parents = new HashSet<>();
        open.forEach(r -> {
            if (r.parent() != null) {
                parents.add(r.parent());
            }
        });
        Instant due = null;
        long events = 0;
        for (RunInfo r : open) {
            events += r.logLength();
            if (r.isHeld()) {
                continue; // it waits for a deploy, not for time
            }
            if (r.status() == RunStatus.WAITING && parents.contains(r.runId())) {
                continue; // it waits for a child of its own, which the look covers
            }
            boolean sleeps = r.status() == RunStatus.SLEEPING || r.status() == RunStatus.PENDING;
            Instant at = turns.get(r.runId());
            if (!sleeps || at == null || !at.isAfter(now)) {
                return null; // it runs (its turn is leased), is due now, or waits for a signal the test sends
            }
            due = due == null || at.isBefore(due) ? at : due;
        }
        return due == null ? null : new Look(now, due, events);
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
