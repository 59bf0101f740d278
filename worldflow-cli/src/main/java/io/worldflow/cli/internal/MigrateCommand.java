package io.worldflow.cli.internal;

import io.worldflow.RunQuery;
import io.worldflow.cli.ExitCodes;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.WorldMigration;
import io.worldflow.runtime.Worldflow;
import io.worldflow.runtime.WorldflowConfig;
import io.worldflow.runtime.internal.WorldLoader;
import io.worldflow.spi.WorldConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code worldflow migrate --from local --to postgres}: copies runs with their whole logs, projections, pending signals,
 * holds and cancellation requests from one world to another ({@link WorldMigration}). Safe to run again and to resume
 * after a crash; each copied run is verified by its hash chain's head.
 */
@Command(
        name = "migrate",
        description = {
            "Copies runs from one world to another with their whole logs, pending signals, holds and cancellation"
                    + " requests; each copy is verified by its hash chain. Running it again copies nothing twice and"
                    + " goes on from where a stopped copy ended.",
            "Stop the workers of both worlds first. A run whose turn is under way in the source is refused unless"
                    + " --wait gives it time to end."
        })
public final class MigrateCommand extends CliCommand {

    @Option(names = "--from", required = true, paramLabel = "WORLD", description = "The world to copy from.")
    String from;

    @Option(names = "--to", required = true, paramLabel = "WORLD", description = "The world to copy to.")
    String to;

    @Option(
            names = "--from-p",
            paramLabel = "KEY=VALUE",
            description = "A configuration value of the source world only (repeatable).")
    Map<String, String> fromProperties = new LinkedHashMap<>();

    @Option(
            names = "--to-p",
            paramLabel = "KEY=VALUE",
            description = "A configuration value of the target world only (repeatable).")
    Map<String, String> toProperties = new LinkedHashMap<>();

    @Option(
            names = "--wait",
            paramLabel = "DURATION",
            converter = Inputs.DurationConverter.class,
            description = "How long to wait for a run whose turn is under way in the source (PT30S); none by default.")
    Duration wait = Duration.ZERO;

    @Option(names = "--batch", paramLabel = "RUNS", description = "Runs read and written at once (default 200).")
    int batch = 200;

    @Mixin
    RunFilters filters;

    @Mixin
    JsonFlag json;

    @Override
    public Integer call() {
        if (connection().viaServer()) {
            throw new CliException(ExitCodes.USAGE, "migrate opens both worlds itself and takes no --server");
        }
        if (batch < 1 || batch > 1000) {
            throw new CliException(ExitCodes.USAGE, "--batch must be within 1..1000, was " + batch);
        }
        RunQuery query = filters.query(batch, null);
        Map<String, String> source = side(from, fromProperties);
        Map<String, String> target = side(to, toProperties);
        if (source.equals(target)) {
            throw new CliException(ExitCodes.USAGE, "--from and --to name the same world with the same settings");
        }
        Connection.requireLocalFile(
                WorldConfig.of(source), "name the file to copy from with --from-p " + Connection.LOCAL_PATH + "=FILE");
        try (Worldflow a = open(source);
                Worldflow b = open(target);
                Progress progress = Progress.start("migrate", () -> count(a, query))) {
            long[] shown = {0};
            WorldMigration.Report report = WorldMigration.between(a.world(), b.world())
                    .batch(batch)
                    .waitForTurns(wait)
                    .onProgress(p -> {
                        for (; shown[0] < p.examined(); shown[0]++) {
                            progress.step();
                        }
                    })
                    .copy(query);
            print(report);
            return report.refused().isEmpty() ? ExitCodes.OK : ExitCodes.PROBLEM;
        }
    }

    private void print(WorldMigration.Report report) {
        if (json.on) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("copied", report.copied());
            out.put("alreadyThere", report.alreadyThere());
            out.put(
                    "refused",
                    report.refused().stream()
                            .map(r -> Map.of("runId", r.runId(), "why", r.why()))
                            .toList());
            JsonOutput.print(out(), out);
            return;
        }
        report.refused().forEach(r -> out().println("refused " + r.runId() + ": " + r.why()));
        out().println(report.copied() + " copied and verified, " + report.alreadyThere() + " there already, "
                + report.refused().size() + " refused");
        out().flush();
    }

    /**
     * The configuration of one side: the command's {@code -p} options, then this side's, then its world's name, which
     * nothing else overrides (the environment and system properties are read as an application reads them).
     */
    private Map<String, String> side(String world, Map<String, String> own) {
        Map<String, String> given = new LinkedHashMap<>(connection().properties());
        given.putAll(own);
        Map<String, String> values = new LinkedHashMap<>(
                WorldflowConfig.load(given, WorldLoader.knownKeys()).asMap());
        values.putAll(own);
        values.put(WorldflowConfig.WORLD, world);
        return values;
    }

    private static Worldflow open(Map<String, String> values) {
        return Worldflow.builder()
                .world(WorldLoader.open(WorldConfig.of(values), Clock.systemUTC(), new JsonCodec().eventCodec()))
                .properties(values)
                .actor(Connection.actor())
                .build();
    }

    private static long count(Worldflow wf, RunQuery query) {
        return wf.counts(query.withLimit(1)).entrySet().stream()
                .filter(e -> e.getKey() != null)
                .mapToLong(Map.Entry::getValue)
                .sum();
    }
}
