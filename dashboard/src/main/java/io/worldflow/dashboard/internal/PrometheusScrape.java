package io.worldflow.dashboard.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * {@link Scrape} over a {@link PrometheusMeterRegistry}. This class alone names the Prometheus registry's classes: it
 * is loaded only once {@link Scrape#PROMETHEUS} has found them.
 */
final class PrometheusScrape implements Scrape {

    private static final String OPEN_METRICS = "application/openmetrics-text";
    private static final String TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry;

    PrometheusScrape(MeterRegistry registry) {
        this.registry = (PrometheusMeterRegistry) registry;
    }

    static boolean accepts(MeterRegistry registry) {
        return registry instanceof PrometheusMeterRegistry;
    }

    @Override
    public Text scrape(String accept) {
        // OpenMetrics when the scraper asks for it (it carries exemplars); else the classic text every scraper reads
        if (accept != null && accept.contains(OPEN_METRICS)) {
            return new Text(registry.scrape(OPEN_METRICS), OPEN_METRICS + "; version=1.0.0; charset=utf-8");
        }
        return new Text(registry.scrape(), TEXT);
    }
}
