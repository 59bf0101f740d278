package io.worldflow.dashboard.internal;

import io.javalin.http.Context;
import io.micrometer.core.instrument.MeterRegistry;
import io.worldflow.dashboard.DashboardSettings;
import io.worldflow.runtime.Worldflow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code /metrics}, the Prometheus scrape of the Worldflow's registry, and {@code /api/metrics/history}, the hour the
 * charts draw. Both are reads, behind the same roles as the rest of the API. When the settings ask for it, the
 * dashboard adds meters of the whole world to the registry ({@link WorldMeters}).
 */
final class MetricsApi implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MetricsApi.class);
    /** How old a sample of the minute in progress may be when a page asks for the hour. */
    private static final Duration FRESH = Duration.ofSeconds(1);

    private final Optional<Scrape> scrape;
    private final String noScrape;
    private final WorldMeters worldMeters;
    private final MetricsHistory history;
    private final ScheduledExecutorService sampler;
    private final InstantSource clock;
    private volatile boolean failing;
    private volatile boolean closed;

    MetricsApi(Worldflow wf, DashboardSettings settings) {
        MeterRegistry registry = wf.meterRegistry().orElse(null);
        this.scrape = Scrape.of(registry);
        this.noScrape = registry == null
                ? "this dashboard's Worldflow has no meter registry: give it a PrometheusMeterRegistry"
                        + " (Worldflow.builder().meterRegistry(...)) to serve /metrics"
                : "this dashboard's Worldflow records its meters into a "
                        + registry.getClass().getSimpleName()
                        + ", which Prometheus cannot scrape: give it a PrometheusMeterRegistry"
                        + " (micrometer-registry-prometheus), alone or in a composite, to serve /metrics";
        this.clock = wf.clock();
        WorldReadings readings = new WorldReadings(wf);
        String world = wf.config().get("worldflow.world", "local");
        this.worldMeters =
                settings.worldMeters() && registry != null ? new WorldMeters(registry, readings, world) : null;
        this.history = new MetricsHistory(registry, readings, wf.clock());
        // runs that end while the first background sample is on its way still count
        history.baseline();
        this.sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "worldflow-dashboard-metrics");
            t.setDaemon(true);
            return t;
        });
        sampler.scheduleWithFixedDelay(this::sample, 0, MetricsHistory.EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** {@code GET /metrics}: the registry in Prometheus text (or OpenMetrics when asked), or 404 saying why not. */
    void scrape(Context ctx) {
        Scrape s = scrape.orElseThrow(() -> new ApiException(404, "no_metrics", noScrape));
        Scrape.Text text = s.scrape(ctx.header("Accept"));
        ctx.status(200).contentType(text.contentType()).result(text.body());
    }

    /**
     * {@code GET /api/metrics/history}: the last hour, a sample a minute, the minute in progress sampled afresh when
     * the last sample is more than {@link #FRESH} old (the world's slower readings keep their own freshness).
     */
    void history(Context ctx) {
        Instant last = history.lastTick();
        if (last == null || Duration.between(last, clock.instant()).compareTo(FRESH) >= 0) {
            history.tick();
        }
        RunsApi.json(ctx, 200, history.view());
    }

    /** A background sample; a failure (the world unreachable) is logged once until samples succeed again. */
    private void sample() {
        try {
            history.tick();
            if (failing) {
                failing = false;
                LOG.info("the dashboard samples its metrics again");
            }
        } catch (RuntimeException e) {
            if (!failing && !closed) {
                failing = true;
                LOG.warn("the dashboard could not sample its metrics: " + e);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        // a sample under way ends before the application closes the world it reads
        sampler.shutdown();
        try {
            if (!sampler.awaitTermination(2, TimeUnit.SECONDS)) {
                sampler.shutdownNow();
            }
        } catch (InterruptedException e) {
            sampler.shutdownNow();
            Thread.currentThread().interrupt();
        }
        if (worldMeters != null) {
            worldMeters.close();
        }
    }
}
