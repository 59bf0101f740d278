package io.worldflow.dashboard.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The last hour of two measures, a sample a minute, kept in this process for the dashboard's charts: throughput (runs
 * ended in the minute) and lag. Each comes from the meters of the worker in this process when there is one (its
 * registry holds {@value #WORKER}), and otherwise from the world through {@link WorldReadings}:
 *
 * <ul>
 *   <li>throughput: the increase of {@value #ENDED} over the minute; or the runs the world says ended in it;
 *   <li>lag: the mean schedule-to-start lag ({@value #TURN_LAG}) the worker measured in the minute; or the longest
 *       that the oldest due pending run was seen waiting in it.
 * </ul>
 *
 * A worker's meters only start when it does, while the world remembers when its runs ended: without a worker the hour
 * of throughput before the dashboard started is read from the world at once. Lag has no such memory, so it starts
 * empty. {@link #tick} samples; the minute in progress is the last sample.
 */
final class MetricsHistory {

    static final int MINUTES = 60;
    /** How often a sample is taken in the background. */
    static final Duration EVERY = Duration.ofSeconds(10);

    static final String WORKER = "worldflow.runs.active";
    static final String ENDED = "worldflow.runs.ended";
    static final String TURN_LAG = "worldflow.turns.lag";

    /** Where a measure came from. */
    enum Source {
        METERS,
        WORLD
    }

    /** One minute's samples; a measure not sampled in it is null. */
    private static final class Minute {
        final long minute;
        Long ended;
        Source endedFrom;
        double lagSum;
        long lagCount;
        Double lagMax;
        Source lagFrom;

        Minute(long minute) {
            this.minute = minute;
        }

        /** The minute's lag in seconds: the mean of a worker's turns, or the longest wait the world showed. */
        Double lag() {
            if (lagFrom == Source.METERS) {
                return lagCount == 0 ? null : lagSum / lagCount;
            }
            return lagMax;
        }
    }

    private final Minute[] ring = new Minute[MINUTES + 1];
    private final MeterRegistry registry;
    private final WorldReadings world;
    private final InstantSource clock;
    private Double lastEnded;
    private long lastLagCount;
    private double lastLagSeconds;
    private boolean lagBaseline;
    private long lastTickMinute = Long.MIN_VALUE;
    private Instant lastTick;
    private boolean backfilled;

    /** @param registry the Worldflow's meter registry, or null */
    MetricsHistory(MeterRegistry registry, WorldReadings world, InstantSource clock) {
        this.registry = registry;
        this.world = world;
        this.clock = clock;
    }

    /** When it last sampled, or null. */
    synchronized Instant lastTick() {
        return lastTick;
    }

    /**
     * Notes what the worker's meters hold now, when a worker runs here, so that what they count from now on is counted
     * in the minutes it happens in. Reads no world: cheap enough to do as the dashboard starts.
     */
    synchronized void baseline() {
        if (workerHere() && lastTick == null) {
            tick();
        }
    }

    /** Samples both measures into the minute in progress, and closes the minutes that ended since the last sample. */
    synchronized void tick() {
        Instant now = clock.instant();
        long minute = Math.floorDiv(now.getEpochSecond(), 60);
        boolean meters = workerHere();
        if (!meters && !backfilled) {
            for (long m = minute - MINUTES; m < minute; m++) {
                Minute past = slot(m);
                if (past.ended == null) {
                    past.ended = world.ended(start(m), start(m + 1));
                    past.endedFrom = Source.WORLD;
                }
            }
            backfilled = true;
        } else if (!meters && lastTickMinute != Long.MIN_VALUE) {
            // the minutes that ended since the last sample, counted whole now that they are over
            for (long m = Math.max(lastTickMinute, minute - MINUTES); m < minute; m++) {
                Minute past = slot(m);
                if (past.endedFrom != Source.METERS) {
                    past.ended = world.ended(start(m), start(m + 1));
                    past.endedFrom = Source.WORLD;
                }
            }
        }
        Minute current = slot(minute);
        if (meters) {
            sampleMeters(current);
        } else {
            lastEnded = null;
            lagBaseline = false;
            current.ended = world.ended(start(minute), now);
            current.endedFrom = Source.WORLD;
            double waited = world.pendingLag().toNanos() / 1e9;
            current.lagMax = current.lagMax == null ? waited : Math.max(current.lagMax, waited);
            current.lagFrom = Source.WORLD;
        }
        lastTickMinute = minute;
        lastTick = now;
    }

    private void sampleMeters(Minute current) {
        double ended = 0;
        for (Counter c : registry.find(ENDED).counters()) {
            ended += c.count();
        }
        // from the first sample on, each sample adds what grew since the one before to the minute it falls in
        if (lastEnded != null) {
            current.ended = (current.ended == null ? 0 : current.ended) + Math.max(0, Math.round(ended - lastEnded));
            current.endedFrom = Source.METERS;
        } else if (current.ended == null) {
            current.ended = 0L;
            current.endedFrom = Source.METERS;
        }
        lastEnded = ended;

        long count = 0;
        double seconds = 0;
        for (Timer t : registry.find(TURN_LAG).timers()) {
            count += t.count();
            seconds += t.totalTime(TimeUnit.SECONDS);
        }
        if (lagBaseline && count >= lastLagCount) {
            if (current.lagFrom != Source.METERS) {
                current.lagSum = 0;
                current.lagCount = 0;
            }
            current.lagSum += seconds - lastLagSeconds;
            current.lagCount += count - lastLagCount;
            current.lagFrom = Source.METERS;
        }
        lastLagCount = count;
        lastLagSeconds = seconds;
        lagBaseline = true;
    }

    /** Whether a worker runs in this process: then its meters measure what happens, and are read first. */
    private boolean workerHere() {
        return registry != null && registry.find(WORKER).gauge() != null;
    }

    /**
     * The hour as the API gives it: for each measure, where its latest sample came from, its unit, and the minutes that
     * have a sample, oldest first, each as its start and its value.
     */
    synchronized Map<String, Object> view() {
        Instant now = clock.instant();
        long minute = Math.floorDiv(now.getEpochSecond(), 60);
        List<Map<String, Object>> ended = new ArrayList<>();
        List<Map<String, Object>> lag = new ArrayList<>();
        Source endedFrom = null;
        Source lagFrom = null;
        for (long m = minute - MINUTES; m <= minute; m++) {
            Minute s = ring[index(m)];
            if (s == null || s.minute != m) {
                continue;
            }
            if (s.ended != null) {
                ended.add(sample(m, s.ended));
                endedFrom = s.endedFrom;
            }
            if (s.lag() != null) {
                lag.add(sample(m, s.lag()));
                lagFrom = s.lagFrom;
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("from", start(minute - MINUTES));
        out.put("to", start(minute + 1));
        out.put("sampledAt", lastTick);
        out.put("throughput", series(endedFrom, "runs ended per minute", ended));
        out.put("lag", series(lagFrom, "seconds", lag));
        return out;
    }

    private static Map<String, Object> series(Source from, String unit, List<Map<String, Object>> samples) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", from == null ? null : from.name().toLowerCase(Locale.ROOT));
        m.put("measure", measure(from, unit));
        m.put("unit", unit);
        m.put("samples", samples);
        return m;
    }

    private static String measure(Source from, String unit) {
        boolean lag = unit.equals("seconds");
        if (from == null) {
            return null;
        }
        return switch (from) {
            case METERS ->
                lag ? "mean schedule-to-start lag this process's worker measured" : "runs this process's worker ended";
            case WORLD -> lag ? "how long the oldest due pending run had waited" : "runs the world ended";
        };
    }

    private static Map<String, Object> sample(long minute, Object value) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("at", start(minute));
        m.put("value", value);
        return m;
    }

    private Minute slot(long minute) {
        int i = index(minute);
        if (ring[i] == null || ring[i].minute != minute) {
            ring[i] = new Minute(minute);
        }
        return ring[i];
    }

    private static int index(long minute) {
        return (int) Math.floorMod(minute, (long) MINUTES + 1);
    }

    private static Instant start(long minute) {
        return Instant.ofEpochSecond(minute * 60);
    }
}
