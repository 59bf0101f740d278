package io.worldflow.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.worldflow.spi.NewRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /metrics} (the Prometheus scrape of the Worldflow's registry, behind the API's roles) and
 * {@code /api/metrics/history} (the hour the runs page charts), over a local world with a running worker.
 */
class MetricsApiTest {

    static final String SCRAPER = "prometheus-token-0123456789";
    static final List<DashboardToken> TOKENS = List.of(new DashboardToken("prometheus", Role.VIEWER, SCRAPER));

    @TempDir
    Path dir;

    private static TestDashboard.Reply scrape(TestDashboard t, String token, String accept) {
        HttpRequest.Builder b = HttpRequest.newBuilder(t.uri("/metrics")).GET();
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (accept != null) {
            b.header("Accept", accept);
        }
        return t.send(b);
    }

    /** The reply once {@code ready} holds of it, asked again until then (meters and samples follow a run's end). */
    private static TestDashboard.Reply await(
            java.util.function.Supplier<TestDashboard.Reply> ask, Predicate<TestDashboard.Reply> ready) {
        long end = System.nanoTime() + TestDashboard.WAIT.toNanos();
        TestDashboard.Reply last = ask.get();
        while (!ready.test(last) && System.nanoTime() < end) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            last = ask.get();
        }
        assertThat(ready).as("last reply: %s %s", last.status(), last.body()).accepts(last);
        return last;
    }

    /** The sample of a Prometheus text line whose name and labels match, or null. */
    private static Double sample(String text, String name, String... labels) {
        for (String line : text.split("\n")) {
            if (!line.startsWith(name + "{")) {
                continue;
            }
            String head = line.substring(0, line.lastIndexOf(' '));
            if (List.of(labels).stream().allMatch(head::contains)) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return null;
    }

    private static double sum(JsonNode samples) {
        double total = 0;
        for (JsonNode s : samples) {
            total += s.path("value").asDouble();
        }
        return total;
    }

    @Test
    void metricsNeedATokenAndServeTheWorkersMetersAsPrometheusText() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (TestDashboard t = new TestDashboard(dir, TOKENS, registry, false)) {
            t.completedOrder("order-1", new TestDashboard.Order("A-1", 2));
            t.completedOrder("order-2", new TestDashboard.Order("A-2", 1));

            TestDashboard.Reply anonymous = scrape(t, null, null);
            assertThat(anonymous.status()).isEqualTo(401);
            assertThat(anonymous.error()).isEqualTo("unauthorized");
            assertThat(anonymous.body()).doesNotContain("worldflow_");
            TestDashboard.Reply wrong = scrape(t, "not-the-token-0123456789", null);
            assertThat(wrong.status()).isEqualTo(401);
            assertThat(wrong.body()).doesNotContain("worldflow_");

            // the run's end is counted just after the run is seen ended: the scrape is asked again until it shows
            TestDashboard.Reply scraped = await(
                    () -> scrape(t, SCRAPER, null),
                    r -> r.status() == 200
                            && Double.valueOf(2.0)
                                    .equals(sample(
                                            r.body(),
                                            "worldflow_runs_ended_total",
                                            "outcome=\"completed\"",
                                            "workflow=\"order\"")));
            assertThat(scraped.raw().headers().firstValue("Content-Type").orElseThrow())
                    .startsWith("text/plain")
                    .contains("version=0.0.4");
            assertThat(scraped.raw().headers().firstValue("Cache-Control")).contains("no-store");
            String text = scraped.body();
            assertThat(sample(text, "worldflow_runs_started_total", "workflow=\"order\"", "world=\"local\""))
                    .isEqualTo(2.0);
            assertThat(sample(text, "worldflow_turns_lag_seconds_count", "workflow=\"order\""))
                    .isGreaterThanOrEqualTo(2.0);
            assertThat(text).contains("# TYPE worldflow_runs_ended_total counter");
            // the dashboard adds no meters of the world unless asked to
            assertThat(text).doesNotContain("worldflow_runs{");

            TestDashboard.Reply open = scrape(t, SCRAPER, "application/openmetrics-text; version=1.0.0");
            assertThat(open.status()).isEqualTo(200);
            assertThat(open.raw().headers().firstValue("Content-Type").orElseThrow())
                    .startsWith("application/openmetrics-text");
            assertThat(open.body()).contains("worldflow_runs_ended_total{").endsWith("# EOF\n");
        }
    }

    @Test
    void withoutARegistryPrometheusCanScrapeMetricsAnswer404SayingWhatToGive() {
        try (TestDashboard t = new TestDashboard(dir, TOKENS, null, true)) {
            TestDashboard.Reply none = scrape(t, SCRAPER, null);
            assertThat(none.status()).isEqualTo(404);
            assertThat(none.error()).isEqualTo("no_metrics");
            assertThat(none.json().path("message").asText())
                    .contains("no meter registry")
                    .contains("PrometheusMeterRegistry");
            // still behind the roles: an anonymous caller learns nothing of it
            assertThat(scrape(t, null, null).status()).isEqualTo(401);
        }
        try (TestDashboard t = new TestDashboard(dir.resolve("simple"), TOKENS, new SimpleMeterRegistry(), false)) {
            TestDashboard.Reply simple = scrape(t, SCRAPER, null);
            assertThat(simple.status()).isEqualTo(404);
            assertThat(simple.json().path("message").asText())
                    .contains("SimpleMeterRegistry")
                    .contains("PrometheusMeterRegistry");
        }
    }

    @Test
    void aPrometheusRegistryInACompositeIsScraped() {
        CompositeMeterRegistry composite = new CompositeMeterRegistry();
        composite.add(new SimpleMeterRegistry());
        composite.add(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        try (TestDashboard t = new TestDashboard(dir, TOKENS, composite, false)) {
            t.completedOrder("order-1", new TestDashboard.Order("A-1", 1));
            await(
                    () -> scrape(t, SCRAPER, null),
                    r -> r.status() == 200
                            && Double.valueOf(1.0)
                                    .equals(sample(r.body(), "worldflow_runs_started_total", "workflow=\"order\"")));
        }
    }

    @Test
    void theDashboardMeasuresTheWorldRunsByStatusAndHowLongTheOldestDuePendingRunHasWaited() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (TestDashboard t = new TestDashboard(dir, TOKENS, registry, true)) {
            t.waitingRun("w-1");
            t.completedOrder("order-1", new TestDashboard.Order("A-1", 1));
            // due 90 seconds ago, in a queue no worker serves: it waits still
            Instant due = Instant.now().minusSeconds(90);
            t.wf.world()
                    .eventLog()
                    .create(new NewRun(
                            "late-1", "approval", t.wf.codec().encode("late", "input"), due, due, null, "nobody", 0));
            // not yet due: it does not wait yet, whatever its age
            Instant later = Instant.now().plus(Duration.ofHours(1));
            t.wf.world()
                    .eventLog()
                    .create(new NewRun(
                            "early-1",
                            "approval",
                            t.wf.codec().encode("early", "input"),
                            due.minusSeconds(600),
                            later,
                            null,
                            "nobody",
                            0));

            TestDashboard.Reply scraped = await(
                    () -> scrape(t, SCRAPER, null),
                    r -> Double.valueOf(2.0)
                            .equals(sample(r.body(), "worldflow_runs", "status=\"PENDING\"", "world=\"local\"")));
            String text = scraped.body();
            assertThat(sample(text, "worldflow_runs", "status=\"WAITING\"")).isEqualTo(1.0);
            assertThat(sample(text, "worldflow_runs", "status=\"COMPLETED\"")).isEqualTo(1.0);
            assertThat(sample(text, "worldflow_runs", "status=\"FAILED\"")).isEqualTo(0.0);
            assertThat(sample(text, "worldflow_runs_pending_lag_seconds", "world=\"local\""))
                    .isBetween(90.0, 90.0 + TestDashboard.WAIT.toSeconds());
        }
        // a closed dashboard takes its meters of the world out of the registry
        assertThat(registry.find("worldflow.runs").gauges()).isEmpty();
        assertThat(registry.find("worldflow.runs.pending.lag").meters()).isEmpty();
    }

    @Test
    void theHistoryChartsTheHourFromTheWorkersMetersWhenOneRunsHere() {
        try (TestDashboard t = new TestDashboard(dir, TOKENS, new SimpleMeterRegistry(), false)) {
            t.completedOrder("order-1", new TestDashboard.Order("A-1", 1));
            t.completedOrder("order-2", new TestDashboard.Order("A-2", 1));
            t.failedRun("c-1");

            JsonNode h = await(
                            () -> t.get("/api/metrics/history"),
                            r -> r.status() == 200
                                    && sum(r.json().path("throughput").path("samples")) >= 3
                                    && !r.json().path("lag").path("samples").isEmpty())
                    .json();
            assertThat(h.path("throughput").path("source").asText()).isEqualTo("meters");
            assertThat(h.path("throughput").path("measure").asText()).contains("worker");
            assertThat(sum(h.path("throughput").path("samples"))).isEqualTo(3.0);
            assertThat(h.path("lag").path("source").asText()).isEqualTo("meters");
            assertThat(h.path("lag").path("unit").asText()).isEqualTo("seconds");
            for (JsonNode s : h.path("lag").path("samples")) {
                assertThat(s.path("value").asDouble()).isBetween(0.0, 60.0);
            }
            assertSamplesWithin(h);
        }
    }

    @Test
    void withoutAWorkersMetersTheHistoryReadsTheWorldTheHourBackAndNeedsAToken() {
        try (TestDashboard t = new TestDashboard(dir, TOKENS, null, false)) {
            t.completedOrder("order-1", new TestDashboard.Order("A-1", 1));
            t.failedRun("c-1");

            assertThat(t.send(HttpRequest.newBuilder(t.uri("/api/metrics/history"))
                                    .GET())
                            .status())
                    .isEqualTo(401);
            JsonNode h = await(
                            () -> t.get("/api/metrics/history"),
                            r -> r.status() == 200
                                    && sum(r.json().path("throughput").path("samples")) >= 2)
                    .json();
            JsonNode throughput = h.path("throughput");
            assertThat(throughput.path("source").asText()).isEqualTo("world");
            assertThat(sum(throughput.path("samples"))).isEqualTo(2.0);
            // the world remembers when runs ended: the whole hour is there from the start, a sample a minute
            assertThat(throughput.path("samples").size()).isEqualTo(61);
            // no run waits: the lag the world shows is none
            JsonNode lag = h.path("lag");
            assertThat(lag.path("source").asText()).isEqualTo("world");
            assertThat(lag.path("samples")).isNotEmpty();
            assertThat(lag.path("samples")
                            .get(lag.path("samples").size() - 1)
                            .path("value")
                            .asDouble())
                    .isZero();
            assertSamplesWithin(h);
        }
    }

    /** Each sample is a minute of the hour the history spans, in order. */
    private static void assertSamplesWithin(JsonNode h) {
        Instant from = Instant.parse(h.path("from").asText());
        Instant to = Instant.parse(h.path("to").asText());
        assertThat(Duration.between(from, to)).isEqualTo(Duration.ofMinutes(61));
        for (String series : List.of("throughput", "lag")) {
            List<Instant> at = new ArrayList<>();
            h.path(series)
                    .path("samples")
                    .forEach(s -> at.add(Instant.parse(s.path("at").asText())));
            assertThat(at).isSorted().doesNotHaveDuplicates().allMatch(i -> !i.isBefore(from) && i.isBefore(to));
            assertThat(at).allMatch(i -> i.getEpochSecond() % 60 == 0);
        }
    }
}
