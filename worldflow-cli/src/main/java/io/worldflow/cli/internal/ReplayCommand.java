package io.worldflow.cli.internal;

import io.worldflow.WorldflowException;
import io.worldflow.cli.ExitCodes;
import io.worldflow.runtime.WorkflowReplayer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code worldflow replay}: runs the application's current workflow code against saved histories, or a run's history
 * read from the world or the dashboard, and says where the code no longer matches (the check a worker makes when it
 * resumes a run), writing nothing.
 */
@Command(
        name = "replay",
        description = {
            "Replays histories with the application's current workflow code, writing nothing, and names the first"
                    + " place each one no longer matches (the event and the primitive).",
            "The workflows come from the classes named by --workflows, found on --classpath: their public static"
                    + " Workflow fields and no-argument methods, or, for a class with @WorkflowMethod methods, an"
                    + " instance made with its no-argument constructor."
        })
public final class ReplayCommand extends CliCommand {

    @Option(
            names = "--workflows",
            required = true,
            split = ",",
            paramLabel = "CLASS",
            description = "Classes that hold the application's workflows (repeat or separate by commas).")
    List<String> classes = new ArrayList<>();

    @Option(
            names = "--classpath",
            paramLabel = "PATH",
            description = "Where those classes are: jars and folders separated by the platform's path separator"
                    + " (':' on Linux), a folder ending in /* for every jar in it.")
    String classpath;

    @Option(names = "--history", paramLabel = "FILE", description = "A saved history (repeatable).")
    List<Path> histories = new ArrayList<>();

    @Option(names = "--dir", paramLabel = "FOLDER", description = "Every .json history under this folder.")
    Path dir;

    @Option(names = "--run", paramLabel = "ID", description = "A run's history, read from the world or the server.")
    List<String> runIds = new ArrayList<>();

    @Mixin
    JsonFlag json;

    private void check() {
        if (histories.isEmpty() && dir == null && runIds.isEmpty()) {
            throw new CliException(ExitCodes.USAGE, "give --history FILE, --dir FOLDER or --run ID");
        }
        for (Path h : histories) {
            if (!Files.isRegularFile(h)) {
                // a file named on the command line that is not there is bad input; not found is for runs and schedules
                throw new CliException(ExitCodes.USAGE, "no history file " + h);
            }
        }
        if (dir != null && !Files.isDirectory(dir)) {
            throw new CliException(ExitCodes.USAGE, "no folder " + dir);
        }
    }

    @Override
    public Integer call() throws Exception {
        check();
        WorkflowReplayer replayer = WorkflowReplayer.of(WorkflowClasses.load(classes, classpath));
        List<WorkflowReplayer.Result> results = new ArrayList<>();
        for (Path h : histories) {
            results.add(replay(h.toString(), () -> replayer.check(WorkflowReplayer.read(h))));
        }
        if (dir != null) {
            results.addAll(replayer.replayAll(dir).results());
        }
        if (!runIds.isEmpty()) {
            try (Backend backend = connection().open(JsonOutput.mapper())) {
                for (String id : runIds) {
                    String history = backend.history(id);
                    results.add(replay("run " + id, () -> replayer.check(WorkflowReplayer.parse(history))));
                }
            }
        }
        print(results);
        return results.stream().allMatch(WorkflowReplayer.Result::ok) ? ExitCodes.OK : ExitCodes.PROBLEM;
    }

    private interface Replay {
        WorkflowReplayer.Result get();
    }

    private static WorkflowReplayer.Result replay(String source, Replay replay) {
        try {
            WorkflowReplayer.Result r = replay.get();
            return new WorkflowReplayer.Result(source, r.runId(), r.workflow(), r.events(), r.outcome(), r.detail());
        } catch (WorldflowException e) {
            return new WorkflowReplayer.Result(source, null, null, 0, WorkflowReplayer.Outcome.FAILED, e.getMessage());
        }
    }

    private void print(List<WorkflowReplayer.Result> results) {
        long bad = results.stream().filter(r -> !r.ok()).count();
        if (json.on) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("replayed", results.size());
            out.put("failed", bad);
            out.put("results", results.stream().map(ReplayCommand::view).toList());
            JsonOutput.print(out(), out);
            return;
        }
        for (WorkflowReplayer.Result r : results) {
            out().println(r.outcome() + "  " + r.source()
                    + (r.runId() == null
                            ? ""
                            : " (run " + r.runId() + ", " + r.workflow() + ", " + r.events() + " events)")
                    + ": " + r.detail());
        }
        out().println("replayed " + results.size() + (results.size() == 1 ? " history: " : " histories: ")
                + (bad == 0 ? "the code matches every one" : bad + (bad == 1 ? " does not replay" : " do not replay")));
        out().flush();
    }

    private static Map<String, Object> view(WorkflowReplayer.Result r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", r.source());
        m.put("runId", r.runId());
        m.put("workflow", r.workflow());
        m.put("events", r.events());
        m.put("outcome", r.outcome().name());
        m.put("detail", r.detail());
        return m;
    }
}
