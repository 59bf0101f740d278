package io.worldflow.dashboard;

import io.javalin.Javalin;
import io.worldflow.dashboard.internal.Routes;
import io.worldflow.runtime.Worldflow;

import java.net.URI;
import java.util.Objects;

/**
 * The dashboard: an HTTP API (documented at {@code /api/openapi.json}), a web UI, live updates, and the
 * endpoint of signed signal URLs, over the world of a {@link Worldflow}; and {@code /metrics} for Prometheus when the
 * Worldflow's {@link Worldflow#meterRegistry() registry} is a {@code PrometheusMeterRegistry}, alone or in a
 * composite. Bound to {@code 127.0.0.1} unless
 * configured otherwise; every read and action needs a token of {@link DashboardSettings} whose {@link Role} allows it
 * (or an identity the application's {@link Authenticator} gives).
 *
 * <pre>{@code
 * try (Dashboard dashboard = Dashboard.start(wf, DashboardSettings.fromConfig(wf.config()))) {
 *     System.out.println("open " + dashboard.loginUrl());
 * }
 * }</pre>
 */
public final class Dashboard implements AutoCloseable {

    private final Routes routes;
    private final DashboardSettings settings;
    private final Javalin server;

    private Dashboard(Worldflow wf, DashboardSettings settings, Authenticator authenticator) {
        this.settings = settings;
        this.routes = new Routes(wf, settings, authenticator, this::url);
        this.server = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.startup.showOldJavalinVersionWarning = false;
            config.concurrency.useVirtualThreads = true;
            config.http.maxRequestSize = settings.maxBodyBytes();
            config.jetty.host = settings.host();
            config.jetty.port = settings.port();
            routes.install(config.routes);
        });
    }

    /** Starts serving {@code wf}'s world; the caller keeps owning {@code wf}. */
    public static Dashboard start(Worldflow wf, DashboardSettings settings) {
        return start(wf, settings, null);
    }

    /**
     * Starts serving {@code wf}'s world, letting {@code authenticator} say who a request without a dashboard token
     * comes from (for example the user a trusted proxy names in a header).
     */
    public static Dashboard start(Worldflow wf, DashboardSettings settings, Authenticator authenticator) {
        Objects.requireNonNull(wf, "wf");
        Objects.requireNonNull(settings, "settings");
        Dashboard dashboard = new Dashboard(wf, settings, authenticator);
        try {
            dashboard.server.start();
        } catch (RuntimeException e) {
            dashboard.routes.close();
            throw new io.worldflow.ConfigurationException(
                    "the dashboard cannot listen on " + settings.host() + ":"
                            + settings.port() + " (" + DashboardSettings.HOST + ", " + DashboardSettings.PORT + "): "
                            + why(e),
                    e);
        }
        return dashboard;
    }

    /**
     * Why the server could not listen: the first cause the JDK gave (an address that does not resolve, one this
     * machine does not have, a port taken), since the server's own message says the port is in use whatever happened.
     */
    private static String why(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return switch (root) {
            case java.nio.channels.UnresolvedAddressException u -> "the host does not resolve to an address";
            case java.net.BindException b -> b.getMessage() == null ? "it cannot bind there" : b.getMessage();
            default -> root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        };
    }

    /** The port it listens on (the chosen one when configured as 0). */
    public int port() {
        return server.port();
    }

    /** Its root URL. */
    public URI url() {
        String host = settings.host().contains(":") ? "[" + settings.host() + "]" : settings.host();
        return URI.create("http://" + ("0.0.0.0".equals(host) ? "127.0.0.1" : host) + ":" + port());
    }

    /** A URL that logs a browser in as the admin (it carries the admin's token: give it to nobody else). */
    public URI loginUrl() {
        return URI.create(url() + "/?token=" + settings.token());
    }

    public DashboardSettings settings() {
        return settings;
    }

    @Override
    public void close() {
        routes.close();
        server.stop();
    }
}
