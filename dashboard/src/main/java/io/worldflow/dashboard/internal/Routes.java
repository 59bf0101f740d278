package io.worldflow.dashboard.internal;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HttpResponseException;
import io.worldflow.Actors;
import io.worldflow.ConfigurationException;
import io.worldflow.RunFinishedException;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStateException;
import io.worldflow.ScheduleNotFoundException;
import io.worldflow.SerializationException;
import io.worldflow.UnknownWorkflowException;
import io.worldflow.WorldException;
import io.worldflow.dashboard.Authenticator;
import io.worldflow.dashboard.Caller;
import io.worldflow.dashboard.DashboardSettings;
import io.worldflow.dashboard.Role;
import io.worldflow.runtime.SignalEndpoint;
import io.worldflow.runtime.Worldflow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** Every route of the dashboard, its access rule, and how failures become JSON errors. */
public final class Routes implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Routes.class);
    private static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

    private final Worldflow wf;
    private final Auth auth;
    private final Bodies bodies;
    private final RunsApi runs;
    private final SchedulesApi schedules;
    private final QueuesApi queues;
    private final LiveUpdates live;
    private final MetricsApi metrics;
    private final boolean publicReads;
    private final WebFiles web;
    private volatile SignalEndpoint signalEndpoint;

    /** @param authenticator the application's own authentication, or null */
    public Routes(Worldflow wf, DashboardSettings settings, Authenticator authenticator, Supplier<URI> ownUrl) {
        this.wf = wf;
        boolean publicReads = settings.publicReads();
        this.auth = new Auth(settings.token(), settings.tokens(), publicReads, authenticator);
        this.bodies = new Bodies(settings.maxBodyBytes());
        this.runs = new RunsApi(wf, bodies, ownUrl);
        this.schedules = new SchedulesApi(wf, bodies);
        this.queues = new QueuesApi(wf, bodies);
        this.live = new LiveUpdates(wf, runs);
        this.metrics = new MetricsApi(wf, settings);
        this.publicReads = publicReads;
        this.web = new WebFiles();
    }

    public void install(RoutesConfig r) {
        r.before(this::headers);
        r.before("/", this::tokenLogin);
        r.before("/api/*", this::authorize);
        r.before("/metrics", this::authorize);

        r.get("/api/openapi.json", ctx -> ctx.contentType("application/json").result(resource("openapi.json")));
        r.get("/api/session", this::session);
        r.post("/api/session", this::login);
        r.delete("/api/session", ctx -> {
            auth.logout(ctx);
            ctx.status(204);
        });

        r.get("/api/runs", runs::list);
        r.get("/api/counts", runs::counts);
        r.get("/api/workflows", ctx -> RunsApi.json(ctx, 200, Map.of("registered", wf.workflowNames())));
        r.get("/api/runs/{runId}", runs::get);
        r.get("/api/runs/{runId}/events", runs::events);
        r.get("/api/runs/{runId}/chain", runs::chain);
        r.get("/api/runs/{runId}/chain/export", runs::chainExport);
        r.get("/api/runs/{runId}/replay", runs::replay);
        r.sse("/api/runs/{runId}/live", client -> live.watchRun(client, RunsApi.runId(client.ctx())));
        // a stream has answered 200 before its handler runs: its filters are checked first, so that a bad one is a 400
        r.before("/api/live/runs", ctx -> runs.query(ctx, false));
        r.sse("/api/live/runs", client -> live.watchRuns(client, runs.query(client.ctx(), false)));

        r.post("/api/runs", asCaller(runs::start));
        r.post("/api/runs/{runId}/cancel", asCaller(runs::cancel));
        r.post("/api/runs/{runId}/terminate", asCaller(runs::terminate));
        r.post("/api/runs/{runId}/retry", asCaller(runs::retry));
        r.post("/api/runs/{runId}/signals/{name}", asCaller(runs::signal));
        r.post("/api/runs/{runId}/signal-urls", asCaller(runs::signalUrl));
        r.post("/api/runs/{runId}/signal-urls/revoke", asCaller(runs::revokeSignalUrl));

        r.get("/api/schedules", schedules::list);
        r.get("/api/schedules/{scheduleId}", schedules::get);
        r.post("/api/schedules/{scheduleId}/pause", asCaller(schedules::pause));
        r.post("/api/schedules/{scheduleId}/resume", asCaller(schedules::resume));
        r.post("/api/schedules/{scheduleId}/trigger", asCaller(schedules::trigger));

        r.get("/api/queues", queues::list);
        r.get("/api/queues/{name}", queues::get);
        r.put("/api/queues/{name}", asCaller(queues::put));

        r.get("/metrics", metrics::scrape);
        r.get("/api/metrics/history", metrics::history);

        r.post("/signals/{runId}/{name}", this::signedSignal);
        web.install(r);

        r.exception(Exception.class, this::failure);
        r.error(404, "*", this::notFound);
        r.error(405, "*", this::notFound);
    }

    /**
     * The action, recorded as the request's caller's ({@link Actors#dashboard}): in a run's log, a schedule's or a
     * queue's; and logged once done, with who asked, as every refusal is.
     */
    private Handler asCaller(Handler action) {
        return ctx -> {
            Caller caller = ctx.attribute(Auth.CALLER);
            Caller who = caller == null ? Caller.ANONYMOUS : caller;
            try (var as = wf.actingAs(Actors.dashboard(who.name()))) {
                action.handle(ctx);
            }
            if (ctx.status().getCode() < 400) {
                LOG.info(ctx.method().name() + " " + ctx.path() + " by '" + who.name() + "' ("
                        + who.role().label() + ", from " + ctx.ip() + "): "
                        + ctx.status().getCode());
            }
        };
    }

    private void headers(Context ctx) {
        ctx.header("Content-Security-Policy", CSP);
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("X-Frame-Options", "DENY");
        ctx.header("Referrer-Policy", "no-referrer");
        if (ctx.path().startsWith("/api/")
                || ctx.path().startsWith("/signals/")
                || ctx.path().equals("/metrics")) {
            ctx.header("Cache-Control", "no-store");
        }
    }

    /** {@code /?token=…}: the login link printed at start sets the cookie and drops the token from the address. */
    private void tokenLogin(Context ctx) {
        String token = ctx.queryParam("token");
        if (token == null) {
            return;
        }
        if (auth.lookup(token) != null) {
            auth.login(ctx, token);
            ctx.redirect("/");
        } else {
            ctx.redirect("/login.html?failed=1");
        }
    }

    private void authorize(Context ctx) {
        String path = ctx.path();
        if (path.equals("/api/openapi.json") || path.equals("/api/session")) {
            return;
        }
        auth.require(ctx, needed(ctx.method().name(), path));
    }

    /**
     * The role a request needs: reading, a viewer; acting on runs, an operator; changing schedules and queues, an
     * admin.
     */
    static Role needed(String method, String path) {
        if ("GET".equals(method) || "HEAD".equals(method)) {
            return Role.VIEWER;
        }
        return path.startsWith("/api/schedules/") || path.startsWith("/api/queues/") ? Role.ADMIN : Role.OPERATOR;
    }

    private void session(Context ctx) {
        Optional<Caller> caller;
        try {
            caller = auth.identify(ctx);
        } catch (ApiException e) {
            caller = Optional.empty();
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("authenticated", caller.isPresent());
        out.put("name", caller.map(Caller::name).orElse(null));
        out.put("role", caller.map(c -> c.role().label()).orElse(publicReads ? Role.VIEWER.label() : null));
        out.put("publicReads", publicReads);
        RunsApi.json(ctx, 200, out);
    }

    private void login(Context ctx) {
        String token = bodies.object(ctx).path("token").asText("");
        if (auth.lookup(token) == null) {
            throw new ApiException(401, "unauthorized", "the dashboard token is wrong");
        }
        auth.login(ctx, token);
        ctx.status(204);
    }

    private void signedSignal(Context ctx) {
        SignalEndpoint endpoint = signalEndpoint;
        if (endpoint == null) {
            endpoint = wf.signalEndpoint();
            signalEndpoint = endpoint;
        }
        // the limit is the endpoint's; a declared length past it is refused before reading
        byte[] body = bodies.read(ctx);
        InputStream in = new ByteArrayInputStream(body);
        SignalEndpoint.Response response =
                endpoint.post(ctx.pathParam("runId"), ctx.pathParam("name"), ctx.queryParam("token"), in);
        ctx.status(response.status()).contentType("application/json").result(response.json());
    }

    /** What a failed request answers: its status, a stable code and a message. */
    private record Failure(int status, String code, String message) {}

    private void failure(Exception e, Context ctx) {
        String message = e.getMessage();
        Failure f = switch (e) {
            case ApiException a -> new Failure(a.status(), a.code(), message);
            case RunNotFoundException x -> new Failure(404, "run_not_found", message);
            case ScheduleNotFoundException x -> new Failure(404, "schedule_not_found", message);
            case RunFinishedException x -> new Failure(409, "run_finished", message);
            case RunStateException x -> new Failure(409, "conflict", message);
            case UnknownWorkflowException x -> new Failure(400, "unknown_workflow", message);
            case SerializationException x -> new Failure(400, "bad_payload", message);
            case ConfigurationException x -> new Failure(503, "not_configured", message);
            case WorldException x when x.isTransient() -> new Failure(503, "unavailable", message);
            case IllegalArgumentException x -> new Failure(400, "bad_request", message);
            case HttpResponseException h
            when h.getStatus() == 404 ->
                new Failure(404, "not_found", "no such route: " + ctx.method().name() + " " + ctx.path());
            case HttpResponseException h when h.getStatus() == 413 -> new Failure(413, "body_too_large", message);
            case HttpResponseException h -> new Failure(h.getStatus(), "http_" + h.getStatus(), message);
            default -> {
                LOG.error("request " + ctx.method().name() + " " + ctx.path() + " failed", e);
                yield new Failure(500, "internal_error", "the server failed; see its log");
            }
        };
        ctx.status(f.status()).contentType("application/json").result(Json.error(f.code(), f.message()));
    }

    /** Routes and files that do not exist; a 404 the API wrote itself (an unknown run) is left as it is. */
    private void notFound(Context ctx) {
        String written = ctx.res().getContentType();
        if (written != null && written.startsWith("application/json")) {
            return;
        }
        ctx.status(404)
                .contentType("application/json")
                .result(Json.error("not_found", "no such route: " + ctx.method().name() + " " + ctx.path()));
    }

    private static String resource(String name) {
        try (InputStream in = Routes.class.getResourceAsStream("/io/worldflow/dashboard/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        live.close();
        metrics.close();
    }
}
