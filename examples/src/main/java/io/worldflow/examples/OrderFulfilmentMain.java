package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.event.Event;
import io.worldflow.examples.OrderFulfilment.Approval;
import io.worldflow.examples.OrderFulfilment.Item;
import io.worldflow.examples.OrderFulfilment.Order;
import io.worldflow.examples.OrderFulfilment.Receipt;
import io.worldflow.runtime.Worldflow;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The README demo: fulfils orders on the world from configuration (the local SQLite world unless
 * told otherwise), approving each one when it waits for approval, then prints every outcome and the
 * first order's event timeline.
 *
 * <p>Arguments: {@code --orders N} (default 1), {@code --batch NAME} (run ids {@code NAME-1..N}, so a
 * restarted process resumes the same runs; default: fresh ids), {@code --cool-off MILLIS} (default
 * 1000), {@code --step-millis MILLIS} (time each side effect takes, default 20), {@code --ledger FILE}
 * (append one line per side effect), {@code --quiet} (no timeline).
 */
public final class OrderFulfilmentMain {

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args);
        DemoServices services = new DemoServices(o.ledger, o.stepMillis, true);
        Workflow<Order, Receipt> fulfil = OrderFulfilment.workflow(services, services, Duration.ofMillis(o.coolOffMillis));

        try (Worldflow wf = Worldflow.builder().fromConfig().register(fulfil).build()) {
            wf.startWorker();
            List<RunHandle<Receipt>> runs = new ArrayList<>();
            for (int i = 1; i <= o.orders; i++) {
                String id = o.batch != null ? o.batch + "-" + i : "order-" + UUID.randomUUID().toString().substring(0, 8);
                Order order = new Order(id, "customer-" + i, List.of(new Item("mug", 1), new Item("tea", 2),
                        new Item("card", 1)), 2_450);
                runs.add(wf.start(fulfil, order, StartOptions.id(id)));      // idempotent by id
            }
            Approver approver = new Approver(wf, runs.stream().map(RunHandle::id).toList());
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
            var counts = wf.counts(RunQuery.all().withIdPrefix(o.batch != null ? o.batch + "-" : "order-"));
            System.out.println("runs by status: " + counts);
        }
    }

    static void printTimeline(Worldflow wf, String runId) {
        List<Event> timeline = wf.events(runId);
        System.out.println();
        System.out.println("event timeline of " + runId + " (" + timeline.size() + " events):");
        long start = timeline.getFirst().at().toEpochMilli();
        for (Event e : timeline) {
            System.out.printf("  %3d  +%5d ms  %-22s %s%n", e.seq(), e.at().toEpochMilli() - start, e.type(), Timeline.detail(e));
        }
    }

    /** Approves every order that waits for approval (a stand-in for a person clicking a link). */
    static final class Approver {
        private final Worldflow wf;
        private final List<String> runIds;
        private final Thread thread;
        private volatile boolean stop;

        Approver(Worldflow wf, List<String> runIds) {
            this.wf = wf;
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
                        wf.signal(id, "approval", new Approval(true, "demo-approver"));
                    }
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    record Options(int orders, String batch, long coolOffMillis, long stepMillis, Path ledger, boolean quiet) {
        static Options parse(String[] args) {
            int orders = 1;
            String batch = null;
            long coolOff = 1000;
            long stepMillis = 20;
            Path ledger = null;
            boolean quiet = false;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--orders" -> orders = Integer.parseInt(value(args, ++i, "--orders"));
                    case "--batch" -> batch = value(args, ++i, "--batch");
                    case "--cool-off" -> coolOff = Long.parseLong(value(args, ++i, "--cool-off"));
                    case "--step-millis" -> stepMillis = Long.parseLong(value(args, ++i, "--step-millis"));
                    case "--ledger" -> ledger = Path.of(value(args, ++i, "--ledger"));
                    case "--quiet" -> quiet = true;
                    default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'; see the class javadoc");
                }
            }
            if (orders < 1) {
                throw new IllegalArgumentException("--orders must be at least 1");
            }
            return new Options(orders, batch, coolOff, stepMillis, ledger, quiet);
        }

        private static String value(String[] args, int i, String name) {
            if (i >= args.length) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            return args[i];
        }
    }
}
