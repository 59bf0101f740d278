package io.worldflow.dashboard.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

import java.util.Optional;

/**
 * The text a Prometheus server scrapes at {@code /metrics}: the meters of a registry that can write that format. The
 * Prometheus registry is an optional dependency of the dashboard, so its classes are touched only once it is known to
 * be on the classpath ({@link PrometheusScrape}).
 */
interface Scrape {

    /**
     * Whether the Prometheus registry is on the classpath: looked up by name, so that without it no class of its is
     * ever loaded.
     */
    boolean PROMETHEUS = loadable("io.micrometer.prometheusmetrics.PrometheusMeterRegistry");

    /** The meters in the format the {@code Accept} header asks for (OpenMetrics, or else Prometheus text). */
    Text scrape(String accept);

    /** What a scrape answers: its body and its content type. */
    record Text(String body, String contentType) {}

    /**
     * The scrape of {@code registry}: the registry itself when it is a Prometheus one, or the first Prometheus registry
     * a composite holds (as Spring Boot's is); empty when there is none.
     */
    static Optional<Scrape> of(MeterRegistry registry) {
        if (registry == null || !PROMETHEUS) {
            return Optional.empty();
        }
        if (PrometheusScrape.accepts(registry)) {
            return Optional.of(new PrometheusScrape(registry));
        }
        if (registry instanceof CompositeMeterRegistry composite) {
            for (MeterRegistry member : composite.getRegistries()) {
                Optional<Scrape> found = of(member);
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    private static boolean loadable(String className) {
        try {
            Class.forName(className, false, Scrape.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
