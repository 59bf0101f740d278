package io.worldflow.runtime;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A clock that moves only when told to, for tests that skip time: timers, retries and leases all
 * follow it. Listeners (the worker's timer service) are told after every change.
 */
public final class ManualClock implements InstantSource {

    private volatile Instant now;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    public ManualClock(Instant start) {
        this.now = Objects.requireNonNull(start, "start");
    }

    /** A clock at 2030-01-01T00:00:00Z. */
    public static ManualClock start() {
        return new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));
    }

    @Override
    public Instant instant() {
        return now;
    }

    public void advance(Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("a manual clock only moves forward, not by " + d);
        }
        synchronized (this) {
            now = now.plus(d);
        }
        listeners.forEach(Runnable::run);
    }

    public void set(Instant instant) {
        synchronized (this) {
            if (instant.isBefore(now)) {
                throw new IllegalArgumentException("a manual clock only moves forward: " + instant + " < " + now);
            }
            now = instant;
        }
        listeners.forEach(Runnable::run);
    }

    /** Calls {@code listener} after each change of time. */
    public void onChange(Runnable listener) {
        listeners.add(listener);
    }

    public void removeListener(Runnable listener) {
        listeners.remove(listener);
    }
}
