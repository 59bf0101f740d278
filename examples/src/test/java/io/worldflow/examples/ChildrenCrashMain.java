package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Parents that each start children side by side, in a JVM of its own so that a test can kill it with SIGKILL while
 * children are being started: {@code ChildrenCrashMain <db> <ledger> <parents> <children> <gate>}. Each child's step
 * writes a line to the ledger; each parent's last child starts only once the file {@code gate} exists, so that a worker
 * killed before the test makes it has not started every child, however late its timers fire; the process exits once
 * every parent has its result.
 */
final class ChildrenCrashMain {

    /** Where the children write their work: set before any workflow runs. */
    private static volatile Path ledger;

    /** The file whose existence lets each parent start its last child: set before any workflow runs. */
    private static volatile Path gate;

    static final Workflow<String, String> CHILD = Workflow.define("crash.child", String.class, (ctx, name) -> {
        ctx.sleep("settle", Duration.ofMillis(20));
        return ctx.step("work", () -> {
            Files.writeString(
                    ledger,
                    "work " + name + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            return name;
        });
    });

    static final Workflow<Integer, Integer> PARENT = Workflow.define("crash.parent", Integer.class, (ctx, n) -> {
        List<Integer> kids = IntStream.range(0, n).boxed().toList();
        List<String> done = ctx.parallel("kids", kids, (b, i) -> {
            // children start over a while, so a kill lands among them: the first child's work comes some 20 ms after
            // the first start and the last start 2.4 s after it, wide enough for a machine busy enough to fire timers
            // hundreds of ms late, which starts many children at once
            b.sleep("pace", Duration.ofMillis(100L * i));
            if (i == n - 1) {
                b.step("gate", ChildrenCrashMain::awaitGate);
            }
            return b.child("kid", CHILD, ctx.runId() + "#" + i);
        });
        return done.size();
    });

    /** Waits until the gate file exists: for ever in the worker the test kills, at once in the one after it. */
    private static boolean awaitGate() throws InterruptedException {
        while (!Files.exists(gate)) {
            Thread.sleep(5);
        }
        return true;
    }

    private ChildrenCrashMain() {}

    public static void main(String[] args) throws IOException {
        Path db = Path.of(args[0]);
        ledger = Path.of(args[1]);
        int parents = Integer.parseInt(args[2]);
        int children = Integer.parseInt(args[3]);
        gate = Path.of(args[4]);
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", db.toString())
                .property("worldflow.worker.lease", "2s")
                .register(PARENT)
                .register(CHILD)
                .build()) {
            wf.startWorker();
            List<RunHandle<Integer>> runs = new ArrayList<>();
            for (int i = 0; i < parents; i++) {
                runs.add(wf.start(PARENT, children, StartOptions.id("parent-" + i)));
            }
            int completed = 0;
            for (RunHandle<Integer> run : runs) {
                if (run.result(Duration.ofSeconds(120)) == children) {
                    completed++;
                }
            }
            System.out.println("parents completed: " + completed);
        }
    }
}
