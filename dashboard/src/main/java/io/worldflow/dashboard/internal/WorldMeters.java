package io.worldflow.dashboard.internal;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.worldflow.RunStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Meters of the whole world that the dashboard adds to its registry, read through {@link WorldReadings} (so a scrape
 * asks the world at most once per reading's freshness):
 *
 * <ul>
 *   <li>{@value #RUNS}, tagged {@code status}: the runs in each status;
 *   <li>{@value #PENDING_LAG}: how long the oldest due pending run has waited, zero when none waits.
 * </ul>
 *
 * Both are tagged {@code world}, as the runtime's meters are. A worker's meters count what that worker did; these say
 * where the world stands, which only a reader of the whole world can.
 */
final class WorldMeters implements AutoCloseable {

    static final String RUNS = "worldflow.runs";
    static final String PENDING_LAG = "worldflow.runs.pending.lag";

    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();

    WorldMeters(MeterRegistry registry, WorldReadings readings, String world) {
        this.registry = registry;
        for (RunStatus status : RunStatus.values()) {
            meters.add(Gauge.builder(RUNS, readings, r -> r.counts().get(status))
                    .description("runs in the world in each status, as the dashboard last counted them")
                    .tags("world", world, "status", status.name())
                    .register(registry));
        }
        meters.add(TimeGauge.builder(
                        PENDING_LAG,
                        readings,
                        TimeUnit.SECONDS,
                        r -> r.pendingLag().toNanos() / 1e9)
                .description("how long the oldest due pending run has waited for a worker; 0 when none waits")
                .tags("world", world)
                .register(registry));
    }

    /** Takes the meters out of the registry: they read a world this dashboard no longer serves. */
    @Override
    public void close() {
        meters.forEach(registry::remove);
    }
}
