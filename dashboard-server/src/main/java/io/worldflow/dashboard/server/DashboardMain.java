package io.worldflow.dashboard.server;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.worldflow.dashboard.Dashboard;
import io.worldflow.dashboard.DashboardSettings;
import io.worldflow.runtime.Worldflow;

import java.util.concurrent.CountDownLatch;

/**
 * {@code java -jar worldflow-dashboard-server.jar}: the dashboard over the world chosen by configuration
 * ({@code worldflow.properties}, {@code WORLDFLOW_*} environment variables or {@code -D} system properties).
 * Every world and a logging backend are on its classpath. It runs no worker. The local world's file belongs to
 * one process, so over the local world the dashboard is started inside the application instead (see
 * {@link Dashboard#start}); over Postgres or AWS it runs beside the workers.
 *
 * <p>It serves {@code /metrics} for Prometheus. As it runs no worker, it measures the world itself: the runs in each
 * status and the lag of the oldest due pending run ({@value DashboardSettings#WORLD_METERS}, on unless configured off).
 */
public final class DashboardMain {

    private DashboardMain() {}

    public static void main(String[] args) throws InterruptedException {
        Worldflow.Builder builder = Worldflow.builder().fromConfig();
        DashboardSettings.DASHED_KEYS.forEach(builder::knownKey);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Worldflow wf = builder.meterRegistry(registry).build();
        DashboardSettings settings = DashboardSettings.fromConfig(wf.config())
                .withWorldMeters(wf.config().getBoolean(DashboardSettings.WORLD_METERS, true));
        Dashboard dashboard = Dashboard.start(wf, settings);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            dashboard.close();
                            wf.close();
                            registry.close();
                            stopped.countDown();
                        },
                        "worldflow-dashboard-shutdown"));
        System.out.println("Worldflow dashboard on " + dashboard.url() + " over the "
                + wf.config().get("worldflow.world", "local") + " world");
        // a configured token is a secret of the operator's, kept out of the output (which often ends up in a log
        // store); a generated one exists nowhere else, so the link is the only way in
        if (dashboard.settings().generated()) {
            System.out.println(
                    "No " + DashboardSettings.TOKEN + " was configured; this run's token is in the login link:");
            System.out.println("Log in: " + dashboard.loginUrl());
        } else {
            System.out.println(
                    "Log in: " + dashboard.url() + "/login.html with the configured " + DashboardSettings.TOKEN);
        }
        stopped.await();
    }
}
