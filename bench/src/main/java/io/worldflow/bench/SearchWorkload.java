package io.worldflow.bench;

import io.worldflow.Payload;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.SearchAttributes;
import io.worldflow.SearchKey;
import io.worldflow.StartOptions;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.EventLog;
import io.worldflow.spi.NewRun;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * SEARCH: N runs, each with a customer (ten runs each), a tenant (a tenth of all runs each) and an amount, created
 * through the world in batches from several threads and due in a year so that no worker is needed; then one page of
 * searches by attribute, timed one at a time from the driver's process, for customers, tenants and both, and the
 * counts per status of a customer's runs.
 */
final class SearchWorkload {

    static final SearchKey<String> CUSTOMER = SearchKey.forString("customer");
    static final SearchKey<String> TENANT = SearchKey.forString("tenant");
    static final SearchKey<Long> AMOUNT = SearchKey.forLong("amount");

    private static final int THREADS = 8;
    private static final int QUERIES = 200;
    private static final int DEEP_QUERIES = 30;
    private static final int PAGE = 50;
    private static final int BATCH = 500;

    private final Sizes sizes;
    private final Path logDir;
    private final Consumer<String> status;

    SearchWorkload(Sizes sizes, Path logDir, Consumer<String> status) {
        this.sizes = sizes;
        this.logDir = logDir;
        this.status = status;
    }

    Map<String, Double> run(Target t) {
        Map<String, Double> f = new LinkedHashMap<>();
        int n = sizes.searchRuns();
        int customers = Math.max(1, n / 10);
        int tenants = 10;
        try (Session s = new Session(t, "search", sizes, logDir)) {
            Worldflow wf = s.driver().worldflow();
            status.accept("search: creating " + n + " runs with attributes");
            f.put("search.seed", seed(wf, n, customers, tenants));
            SplittableRandom random = new SplittableRandom(42);
            status.accept("search: " + QUERIES + " searches of each kind");
            for (int i = 0; i < QUERIES / 4; i++) { // warm-up
                wf.runs(byCustomer(random.nextInt(customers)));
            }
            double[] customer = time(QUERIES, () -> wf.runs(byCustomer(random.nextInt(customers))), 1);
            f.put("search.customer_p50", Workloads.Stats.percentile(customer, 50));
            f.put("search.customer_p99", Workloads.Stats.percentile(customer, 99));
            double[] tenant = time(QUERIES, () -> wf.runs(byTenant(random.nextInt(tenants))), PAGE);
            f.put("search.tenant_p50", Workloads.Stats.percentile(tenant, 50));
            double[] deep = new double[DEEP_QUERIES];
            for (int i = 0; i < deep.length; i++) {
                RunQuery q = byTenant(random.nextInt(tenants));
                // the 20th page, or the last one where a tenant has fewer runs (a small --search-runs)
                for (int page = 1; page < 20; page++) {
                    String next = wf.runs(q).nextCursor();
                    if (next == null) {
                        break;
                    }
                    q = q.withCursor(next);
                }
                RunQuery last = q;
                deep[i] = time(1, () -> wf.runs(last), 1)[0];
            }
            f.put("search.tenant_deep_p50", Workloads.Stats.percentile(deep, 50));
            double[] two = time(
                    QUERIES,
                    () -> {
                        int c = random.nextInt(customers);
                        return wf.runs(byCustomer(c).withAttribute(TENANT, tenant(c % tenants)));
                    },
                    1);
            f.put("search.two_p50", Workloads.Stats.percentile(two, 50));
            double[] counts = new double[QUERIES];
            for (int i = 0; i < counts.length; i++) {
                RunQuery q = byCustomer(random.nextInt(customers));
                long t0 = System.nanoTime();
                long total = wf.counts(q).values().stream()
                        .mapToLong(Long::longValue)
                        .sum();
                counts[i] = (System.nanoTime() - t0) / 1e6;
                if (total < 1) {
                    throw new IllegalStateException("a customer has no runs: " + q);
                }
            }
            f.put("search.count_p50", Workloads.Stats.percentile(counts, 50));
        }
        return f;
    }

    /** Runs {@code n} searches one at a time; each must find at least {@code least} runs. */
    private static double[] time(int n, Supplier<RunPage> search, int least) {
        double[] ms = new double[n];
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            RunPage page = search.get();
            ms[i] = (System.nanoTime() - t0) / 1e6;
            if (page.runs().size() < least) {
                throw new IllegalStateException("a search found " + page.runs().size() + " runs, fewer than " + least);
            }
        }
        return ms;
    }

    private static RunQuery byCustomer(int c) {
        return RunQuery.all().withAttribute(CUSTOMER, customer(c)).withLimit(PAGE);
    }

    private static RunQuery byTenant(int t) {
        return RunQuery.all().withAttribute(TENANT, tenant(t)).withLimit(PAGE);
    }

    private static String customer(int c) {
        return "customer-" + c;
    }

    private static String tenant(int t) {
        return "tenant-" + t;
    }

    /**
     * Creates the runs through the world in batches of {@link #BATCH} ({@code EventLog.createAll}, one write each, as
     * a second's fires of many schedules are created), from {@link #THREADS} threads; runs per second.
     */
    private double seed(Worldflow wf, int n, int customers, int tenants) {
        String workflow = BenchWorkflows.NOOP3.name();
        EventLog log = wf.world().eventLog();
        AtomicInteger next = new AtomicInteger();
        long t0 = System.nanoTime();
        try (ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
            List<Future<?>> done = new ArrayList<>();
            for (int k = 0; k < THREADS; k++) {
                done.add(pool.submit(() -> {
                    for (int from = next.getAndAdd(BATCH); from < n; from = next.getAndAdd(BATCH)) {
                        List<NewRun> batch = new ArrayList<>(BATCH);
                        Instant now = Instant.now();
                        for (int i = from; i < Math.min(n, from + BATCH); i++) {
                            int c = i % customers;
                            SearchAttributes attributes = SearchAttributes.of(CUSTOMER, customer(c))
                                    .with(TENANT, tenant(c % tenants))
                                    .with(AMOUNT, (long) (i % 1000));
                            batch.add(new NewRun(
                                            "search-" + i,
                                            workflow,
                                            new Payload(Integer.toString(i), null),
                                            now,
                                            now.plus(Duration.ofDays(365)),
                                            null,
                                            StartOptions.DEFAULT_QUEUE,
                                            0)
                                    .withSearchAttributes(attributes));
                        }
                        log.createAll(batch);
                        if (from % 100_000 == 0 && from > 0) {
                            status.accept("search: " + from + " runs created");
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } catch (Exception e) {
            throw new IllegalStateException("creating the runs failed", e);
        }
        return n / ((System.nanoTime() - t0) / 1e9);
    }
}
