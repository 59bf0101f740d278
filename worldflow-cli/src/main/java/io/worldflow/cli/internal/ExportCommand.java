package io.worldflow.cli.internal;

import io.worldflow.RunNotFoundException;
import io.worldflow.RunQuery;
import io.worldflow.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code worldflow runs export}: runs' logs as saved histories, one file {@code <runId>-history.json} each, in the
 * codec's format ({@code JsonCodec.decodeEvents} reads them back; {@code WorkflowReplayer} replays them).
 */
@Command(
        name = "export",
        description = "Saves runs' logs as histories, one <run>-history.json file each (the format"
                + " GET /api/runs/{id}/events?format=codec serves and WorkflowReplayer reads): the runs named, or every"
                + " run the filters match (--all for every run).")
final class ExportCommand extends BackendCommand {

    private static final int PAGE = 200;

    @Parameters(arity = "0..*", paramLabel = "ID", description = "The runs to export.")
    List<String> runIds = new ArrayList<>();

    @Mixin
    RunFilters filters;

    @Option(names = "--all", description = "Every run of the world.")
    boolean all;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            defaultValue = ".",
            description = "The folder to write to, created when missing (default: the current one).")
    Path dir;

    @Mixin
    JsonFlag json;

    @Override
    protected void check() {
        boolean filtered = filters.any() || all;
        if (runIds.isEmpty() && !filtered) {
            throw new CliException(
                    ExitCodes.USAGE,
                    "name the runs to export: their ids, or filters such as --status COMPLETED (--all for every run)");
        }
        if (!runIds.isEmpty() && filtered) {
            throw new CliException(ExitCodes.USAGE, "give either run ids or filters (--all), not both");
        }
        filters.query(PAGE, null);
    }

    @Override
    protected int run(Backend backend) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new CliException(ExitCodes.USAGE, "--out " + dir + ": cannot create it: " + Failures.message(e), e);
        }
        List<Path> written = new ArrayList<>();
        if (!runIds.isEmpty()) {
            for (String runId : runIds) {
                written.add(write(backend, runId));
            }
        } else {
            RunQuery query = filters.query(PAGE, null);
            try (Progress progress = Progress.start("export", () -> backend.count(query))) {
                for (String cursor = null; ; ) {
                    RunList page = backend.runs(query.withCursor(cursor));
                    for (RunSummary run : page.runs()) {
                        try {
                            written.add(write(backend, run.runId()));
                        } catch (RunNotFoundException gone) {
                            // deleted (retention) since the page was read: nothing left to save
                        }
                        progress.step();
                    }
                    if ((cursor = page.nextCursor()) == null) {
                        break;
                    }
                }
            }
        }
        if (json.on) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("directory", dir.toAbsolutePath().normalize().toString());
            out.put("files", written.stream().map(Path::toString).toList());
            JsonOutput.print(out(), out);
        } else {
            out().println("exported " + written.size() + (written.size() == 1 ? " run" : " runs") + " to "
                    + dir.toAbsolutePath().normalize());
            out().flush();
        }
        return ExitCodes.OK;
    }

    private Path write(Backend backend, String runId) {
        Path file = dir.resolve(fileName(runId) + "-history.json");
        String history = backend.history(runId);
        try {
            Files.writeString(file, history);
        } catch (IOException e) {
            throw new CliException(ExitCodes.USAGE, "cannot write " + file + ": " + Failures.message(e), e);
        }
        return file;
    }

    /** A run id as a file name, as the dashboard names its downloads: anything but letters, digits, . _ - as _. */
    static String fileName(String runId) {
        return runId.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
