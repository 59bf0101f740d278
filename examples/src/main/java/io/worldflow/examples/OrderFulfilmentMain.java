package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.dashboard.Dashboard;
import io.worldflow.dashboard.DashboardSettings;
import io.worldflow.event.Event;
import io.worldflow.examples.OrderFulfilment.Item;
import io.worldflow.examples.OrderFulfilment.Order;
import io.worldflow.examples.OrderFulfilment.Receipt;
import io.worldflow.runtime.TimelineText;
import io.worldflow.runtime.Worldflow;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The README demo: fulfils orders on the world from configuration (the local SQLite world unless
 * told otherwise), approving each one when it waits for approval, then prints every outcome, the first
 * order's event timeline, and how many of its runs ended in each status.
 *
 * <p>Arguments: {@code --orders N} (default 1), {@code --batch NAME} (run ids {@code NAME-1..N}, so a
 * restarted process resumes the same runs; default: fresh ids), {@code --cool-off MILLIS} (default
 * 1000), {@code --step-millis MILLIS} (time each side effect takes, default 20), {@code --ledger FILE}
 * (append one line per side effect), {@code --quiet} (no timeline), {@code --stay} (keep the dashboard
 * serving after the orders are done, until Ctrl-C).
 *
 * <p>It starts the dashboard (its login link is printed first), and approves orders through single-use
 * signed signal URLs that the dashboard's server receives.
 */
public final class OrderFulfilmentMain {

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args);
        DemoServices services = new DemoServices(o.ledger, o.stepMillis, true);
        Workflow<Order, Receipt> fulfil =
                OrderFulfilment.workflow(services, services, Duration.ofMillis(o.coolOffMillis));

        Worldflow.Builder builder = Worldflow.builder().fromConfig().register(fulfil);
        DashboardSettings.DASHED_KEYS.forEach(builder::knownKey);
        try (Worldflow wf = builder.build();
                Dashboard dashboard = startDashboard(wf)) {
            wf.startWorker();
            System.out.println("dashboard: " + dashboard.loginUrl());
            List<RunHandle<Receipt>> runs = new ArrayList<>();
            for (int i = 1; i <= o.orders; i++) {
                String id = o.batch != null
                        ? o.batch + "-" + i
                        : "order-" + UUID.randomUUID().toString().substring(0, 8);
                Order order = new Order(
                        id,
                        "customer-" + i,
                        List.of(new Item("mug", 1), new Item("tea", 2), new Item("card", 1)),
                        2_450);
                runs.add(wf.start(fulfil, order, StartOptions.id(id))); // idempotent by id
            }
            Approver approver = new Approver(
                    wf, dashboard.url(), runs.stream().map(RunHandle::id).toList());
            approver.start();
            List<String> lines = new ArrayList<>();
            for (RunHandle<Receipt> run : runs) {
                Receipt receipt = run.result(Duration.ofMinutes(5));
                lines.add(String.format("%-14s %-9s %s", run.id(), run.status(), receipt));
            }
            approver.stop();
            lines.forEach(System.out::println);
            if (!o.quiet) {
                printTimeline(wf, runs.getFirst().id());
            }
            // this demo's runs only: the database may hold the runs of earlier demos too
            Map<RunStatus, Long> counts = runs.stream()
                    .collect(Collectors.groupingBy(
                            RunHandle::status, () -> new EnumMap<>(RunStatus.class), Collectors.counting()));
            System.out.println("this demo's runs by status: " + counts);
            if (o.stay) {
                System.out.println("the dashboard keeps serving at " + dashboard.loginUrl() + " until Ctrl-C");
                Thread.currentThread().join();
            }
        }
    }

    /** The dashboard on its configured port, or on any free one when that is taken. */
    static Dashboard startDashboard(Worldflow wf) {
        DashboardSettings settings = DashboardSettings.fromConfig(wf.config());
        try {
            return Dashboard.start(wf, settings);
        } catch (io.worldflow.ConfigurationException e) {
            if (settings.port() == 0) {
                throw e;
            }
            System.out.println("port " + settings.port() + " is taken; the dashboard takes another");
            return Dashboard.start(wf, settings.withPort(0));
        }
    }

    static void printTimeline(Worldflow wf, String runId) {
        List<Event> timeline = wf.events(runId);
        System.out.println();
        System.out.println("event timeline of " + runId + " (" + timeline.size() + " events):");
        System.out.print(TimelineText.render(timeline));
    }

    /**
     * Approves every order that waits for approval the way a person clicking a link would: it makes a
     * single-use signed signal URL and POSTs the approval to it, through the dashboard's HTTP server.
     */
    static final class Approver {
        private final Worldflow wf;
        private final URI server;
        private final List<String> runIds;
        private final HttpClient http = HttpClient.newHttpClient();
        private final Thread thread;
        private volatile boolean stop;

        Approver(Worldflow wf, URI server, List<String> runIds) {
            this.wf = wf;
            this.server = server;
            this.runIds = runIds;
            this.thread = Thread.ofPlatform().daemon().name("approver").unstarted(this::loop);
        }

        void start() {
            thread.start();
        }

        void stop() throws InterruptedException {
            stop = true;
            thread.join();
        }

        private void loop() {
            while (!stop) {
                for (String id : runIds) {
                    // pending first, then status: a run that consumed its approval in between has left WAITING
                    // in the same commit, so an order is never approved twice
                    if (!wf.world().signals().pending(id).isEmpty()) {
                        continue;
                    }
                    RunInfo info = wf.run(id).orElse(null);
                    if (info != null && info.status() == RunStatus.WAITING) {
                        approve(id);
                    }
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private void approve(String runId) {
            URI url = wf.signalUrl(server, runId, "approval", Duration.ofMinutes(10), true);
            HttpRequest post = HttpRequest.newBuilder(url)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"approved\":true,\"by\":\"demo-approver\"}"))
                    .build();
            try {
                HttpResponse<String> response = http.send(post, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 202) {
                    System.out.println("approval of " + runId + " refused: " + response.body());
                }
            } catch (IOException e) {
                System.out.println("approval of " + runId + " not sent: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop = true;
            }
        }
    }

    record Options(
            int orders, String batch, long coolOffMillis, long stepMillis, Path ledger, boolean quiet, boolean stay) {
        static Options parse(String[] args) {
            int orders = 1;
            String batch = null;
            long coolOff = 1000;
            long stepMillis = 20;
            Path ledger = null;
            boolean quiet = false;
            boolean stay = false;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--orders" -> orders = Integer.parseInt(value(args, ++i, "--orders"));
                    case "--batch" -> batch = value(args, ++i, "--batch");
                    case "--cool-off" -> coolOff = Long.parseLong(value(args, ++i, "--cool-off"));
                    case "--step-millis" -> stepMillis = Long.parseLong(value(args, ++i, "--step-millis"));
                    case "--ledger" -> ledger = Path.of(value(args, ++i, "--ledger"));
                    case "--quiet" -> quiet = true;
                    case "--stay" -> stay = true;
                    case "--no-stay" -> stay = false;
                    default ->
                        throw new IllegalArgumentException("unknown argument '" + args[i] + "'; see the class javadoc");
                }
            }
            if (orders < 1) {
                throw new IllegalArgumentException("--orders must be at least 1");
            }
            return new Options(orders, batch, coolOff, stepMillis, ledger, quiet, stay);
        }

        private static String value(String[] args, int i, String name) {
            if (i >= args.length) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            return args[i];
        }
    }
}
