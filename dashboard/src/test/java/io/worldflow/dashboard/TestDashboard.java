package io.worldflow.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import io.worldflow.DurableFuture;
import io.worldflow.ErrorInfo;
import io.worldflow.NonDeterministicWorkflowException;
import io.worldflow.RetryPolicy;
import io.worldflow.RunInfo;
import io.worldflow.SearchAttributes;
import io.worldflow.SearchKey;
import io.worldflow.StartOptions;
import io.worldflow.StepOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.NewRun;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * A dashboard over a local world in a temporary directory, with a worker (serving queue {@code default} and any others
 * a test names) running these workflows:
 * {@code approval} (a step, a wait for signal {@code approval}, a step), {@code checkout} (a step that
 * fails until {@link #cardWorks} is set), {@code order} (an {@link Order} in, a step, a {@link Receipt} out),
 * {@code family} (an {@code approval} as its child), {@code renewal} (a payment signal raced against a timer, then
 * continued as new) and {@code tagging} (sets its search attribute {@code stage} to {@code packed}, removes {@code vip},
 * then waits for signal {@code approval}).
 */
final class TestDashboard implements AutoCloseable {

    static final String TOKEN = "test-token-0123456789abcdef";
    static final String SECRET = "signal-secret-0123456789abcdef-0123456789";
    static final Duration WAIT = Duration.ofSeconds(20);
    static final SearchKey<String> STAGE = SearchKey.forString("stage");

    final Worldflow wf;
    final Dashboard dashboard;
    final HttpClient http =
            HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    final AtomicBoolean cardWorks = new AtomicBoolean();

    /** The input of {@code order}: a class whose name has a {@code $}, as users' nested records do. */
    record Order(String sku, int quantity) {}

    /** The result of {@code order}'s step and of the run. */
    record Receipt(String sku, BigDecimal total) {}

    /** A new card for a customer, as a bank's webhook sends it: the number is a secret once read as this type. */
    record CardUpdate(String by, io.worldflow.Secret<String> number) {}

    /** A response: status, body and headers. */
    record Reply(int status, String body, HttpResponse<String> raw) {
        JsonNode json() {
            try {
                return new ObjectMapper().readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + body, e);
            }
        }

        String error() {
            return json().path("error").asText();
        }
    }

    TestDashboard(Path dir, boolean publicReads) {
        this(dir, publicReads, Set.of(StartOptions.DEFAULT_QUEUE));
    }

    /** @param queues the queues the worker serves, and so admits runs to */
    TestDashboard(Path dir, boolean publicReads, Set<String> queues) {
        this(dir, publicReads, queues, List.of(), null);
    }

    /**
     * @param tokens        named tokens besides the admin's {@link #TOKEN}
     * @param authenticator the application's own authentication, or null
     */
    TestDashboard(
            Path dir,
            boolean publicReads,
            Set<String> queues,
            List<DashboardToken> tokens,
            Authenticator authenticator) {
        this(dir, publicReads, queues, tokens, authenticator, Map.of());
    }

    /** @param properties more configuration of the application's Worldflow */
    TestDashboard(
            Path dir,
            boolean publicReads,
            Set<String> queues,
            List<DashboardToken> tokens,
            Authenticator authenticator,
            Map<String, String> properties) {
        this(dir, publicReads, queues, tokens, authenticator, properties, null, false);
    }

    /**
     * A dashboard whose Worldflow records its meters into {@code registry}, with the named tokens.
     *
     * @param worldMeters whether the dashboard adds meters of the whole world to it
     */
    TestDashboard(Path dir, List<DashboardToken> tokens, MeterRegistry registry, boolean worldMeters) {
        this(dir, false, Set.of(StartOptions.DEFAULT_QUEUE), tokens, null, Map.of(), registry, worldMeters);
    }

    /**
     * @param registry    where the Worldflow records its meters, or null for none
     * @param worldMeters whether the dashboard adds meters of the whole world to the registry
     */
    TestDashboard(
            Path dir,
            boolean publicReads,
            Set<String> queues,
            List<DashboardToken> tokens,
            Authenticator authenticator,
            Map<String, String> properties,
            MeterRegistry registry,
            boolean worldMeters) {
        Workflow<String, String> approval = Workflow.define("approval", String.class, (ctx, in) -> {
            String prepared = ctx.step("prepare", () -> "prepared " + in);
            @SuppressWarnings("unchecked")
            Map<String, Object> answer = ctx.awaitSignal("approval", Map.class);
            return ctx.step("finish", () -> prepared + ", approved by " + answer.get("by"));
        });
        Workflow<String, String> checkout = Workflow.define(
                "checkout",
                String.class,
                (ctx, in) -> ctx.step("charge", StepOptions.retry(RetryPolicy.none()), () -> {
                    if (!cardWorks.get()) {
                        throw new IllegalStateException("card declined for " + in);
                    }
                    return "charged " + in;
                }));
        Workflow<Order, Receipt> order = Workflow.define(
                "order",
                Order.class,
                (ctx, in) -> ctx.step(
                        "price",
                        () -> new Receipt(
                                in.sku(), new BigDecimal("6.25").multiply(BigDecimal.valueOf(in.quantity())))));
        Workflow<String, String> family =
                Workflow.define("family", String.class, (ctx, in) -> "parent of " + ctx.child("approve", approval, in));
        Workflow<Integer, String> renewal = Workflow.define("renewal", Integer.class, (ctx, round) -> {
            if (round > 1) {
                return "renewed in round " + round;
            }
            DurableFuture<String> paid = ctx.signalAsync("pay", String.class);
            DurableFuture<Void> expiry = ctx.timer("expiry", Duration.ofHours(1));
            return ctx.race("paid-or-expired", paid, expiry) == paid ? ctx.continueAsNew(round + 1) : "expired";
        });
        Workflow<Integer, String> relay = Workflow.define(
                "relay",
                Integer.class,
                (ctx, round) -> round < 2 ? ctx.continueAsNew(round + 1) : "go " + ctx.awaitSignal("go", String.class));
        Workflow<String, String> tagging = Workflow.define("tagging", String.class, (ctx, in) -> {
            ctx.upsertSearchAttributes(SearchAttributes.of(STAGE, "packed"));
            ctx.removeSearchAttributes("vip");
            ctx.awaitSignal("approval", Map.class);
            return "shipped " + in;
        });
        Workflow<String, String> cardUpdate = Workflow.define("card-update", String.class, (ctx, in) -> {
                    CardUpdate card = ctx.awaitSignal("card", CardUpdate.class);
                    return in + " has a new card from " + card.by();
                })
                .withSignalType("card", CardUpdate.class);
        Worldflow.Builder builder = Worldflow.builder();
        if (registry != null) {
            builder.meterRegistry(registry);
        }
        wf = builder.property(
                        "worldflow.local.path", dir.resolve("dashboard.db").toString())
                .property("worldflow.worker.lease", "5s")
                .property("worldflow.signal.secret", SECRET)
                .properties(properties)
                .register(approval)
                .register(checkout)
                .register(order)
                .register(family)
                .register(renewal)
                .register(relay)
                .register(tagging)
                .register(cardUpdate)
                .build();
        wf.startWorker(WorkerOptions.fromConfig(wf.config()).withQueues(queues));
        dashboard = Dashboard.start(
                wf,
                new DashboardSettings("127.0.0.1", 0, TOKEN, false, publicReads, 64 * 1024, tokens, worldMeters),
                authenticator);
    }

    URI uri(String path) {
        return URI.create(dashboard.url() + path);
    }

    Reply get(String path) {
        return send(HttpRequest.newBuilder(uri(path))
                .header("Authorization", "Bearer " + TOKEN)
                .GET());
    }

    Reply post(String path, String json) {
        return send(HttpRequest.newBuilder(uri(path))
                .header("Authorization", "Bearer " + TOKEN)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    Reply put(String path, String json) {
        return send(HttpRequest.newBuilder(uri(path))
                .header("Authorization", "Bearer " + TOKEN)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> r =
                    http.send(request.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r.body(), r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts an approval run and waits until it waits for its signal. */
    String waitingRun(String id) {
        wf.start("approval", id, StartOptions.id(id));
        awaitRun(id, r -> r.status() == io.worldflow.RunStatus.WAITING);
        return id;
    }

    /** Starts an approval run with search attributes and waits until it waits for its signal. */
    String waitingRun(String id, SearchAttributes attributes) {
        wf.start("approval", id, StartOptions.id(id).withSearchAttributes(attributes));
        awaitRun(id, r -> r.status() == io.worldflow.RunStatus.WAITING);
        return id;
    }

    /** Starts a tagging run with search attributes and waits until it has changed them and waits for its signal. */
    String taggedRun(String id, SearchAttributes attributes) {
        wf.start("tagging", id, StartOptions.id(id).withSearchAttributes(attributes));
        awaitRun(id, r -> r.status() == io.worldflow.RunStatus.WAITING);
        return id;
    }

    /**
     * Starts an approval run, waits until it waits for its signal, and holds it as a worker does when the run's
     * code no longer matches its history. Nothing appends to a run that waits for a signal, so the hold stays.
     */
    String heldRun(String id) {
        waitingRun(id);
        return hold(id, "at 'prepare' the log holds a step, the code now asks for a timer");
    }

    /** Holds run {@code id}, waiting for a signal, as a worker does when its code no longer matches its history. */
    String hold(String id, String why) {
        wf.world().eventLog().hold(id, ErrorInfo.of(new NonDeterministicWorkflowException(id, why)));
        awaitRun(id, RunInfo::isHeld);
        return id;
    }

    /** A trace id, and a W3C traceparent of a span in its trace. */
    static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

    static final String TRACE_PARENT = "00-" + TRACE_ID + "-00f067aa0ba902b7-01";

    /**
     * Creates an approval run whose first event records {@code traceParent} as the trace it continues, as a start
     * under a traced request does; it stays pending in a queue no worker serves.
     */
    String tracedRun(String id, String traceParent) {
        Instant now = Instant.now();
        wf.world()
                .eventLog()
                .create(new NewRun(id, "approval", wf.codec().encode(id, "input"), now, now, null, "untended", 0)
                        .withTrace(traceParent, "vendor=opaque"));
        return id;
    }

    /** Starts a run whose child waits for its approval signal, and waits until both wait. */
    String parentRun(String id) {
        wf.start("family", id, StartOptions.id(id));
        awaitRun(id + "/approve", r -> r.status() == io.worldflow.RunStatus.WAITING);
        awaitRun(id, r -> r.status() == io.worldflow.RunStatus.WAITING);
        return id;
    }

    /** Starts a run that races a payment against a timer, pays it, and waits until its successor has completed. */
    String renewedRun(String id) {
        wf.start("renewal", 1, StartOptions.id(id));
        awaitRun(id, r -> r.status() == io.worldflow.RunStatus.WAITING);
        wf.signal(id, "pay", "card 4242");
        awaitRun(id + "~2", r -> r.status() == io.worldflow.RunStatus.COMPLETED);
        return id;
    }

    /** Starts an order run and waits until it has completed. */
    String completedOrder(String id, Order order) {
        wf.start("order", order, StartOptions.id(id));
        awaitRun(id, r -> r.status() == io.worldflow.RunStatus.COMPLETED);
        return id;
    }

    /** Starts a checkout run and waits until it has failed. */
    String failedRun(String id) {
        wf.start("checkout", id, StartOptions.id(id));
        awaitRun(id, r -> r.status() == io.worldflow.RunStatus.FAILED);
        return id;
    }

    RunInfo awaitRun(String runId, Predicate<RunInfo> condition) {
        long end = System.nanoTime() + WAIT.toNanos();
        RunInfo last = null;
        while (System.nanoTime() < end) {
            last = wf.run(runId).orElse(null);
            if (last != null && condition.test(last)) {
                return last;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new AssertionError("run " + runId + " did not get there within " + WAIT + "; last " + last);
    }

    @Override
    public void close() {
        dashboard.close();
        wf.close();
    }
}
