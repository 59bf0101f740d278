package io.worldflow.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The benchmark harness. {@code all}: every workload against every world, repeated; {@code run}: one workload
 * on one world. Both print the table next to the goals, write the JSON and draw the chart.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        subcommands = {BenchMain.All.class, BenchMain.Run.class},
        description = "Worldflow benchmarks: the workloads of BENCHMARKS.md, a driver process and one worker JVM.")
public final class BenchMain implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchMain())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .execute(args));
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** Options every command shares: output, progress, sizes. */
    static final class Common {
        @Option(
                names = "--out",
                description = "JSON results file (default: ${DEFAULT-VALUE})",
                defaultValue = "target/bench-results.json")
        Path out;

        @Option(
                names = "--chart",
                description = "PNG chart file (default: ${DEFAULT-VALUE})",
                defaultValue = "target/bench-chart.png")
        Path chart;

        @Option(names = "--no-progress", description = "no progress bar (it is drawn on standard error)")
        boolean noProgress;

        @Option(names = "--smoke", description = "tiny sizes (the CI smoke configuration)")
        boolean smoke;

        @Option(
                names = "--telemetry",
                description = "trace (spans exported nowhere) and measure (a Prometheus registry), in every process")
        void telemetry(boolean on) {
            if (on) {
                BenchTelemetry.enable();
            }
        }

        @Option(names = "--w1-runs", description = "W1 runs (5000)")
        Integer w1Runs;

        @Option(names = "--w2-runs", description = "W2 runs (200)")
        Integer w2Runs;

        @Option(names = "--w2-idle-ms", description = "W2 idle time after worker start (3000)")
        Long w2IdleMs;

        @Option(names = "--w3-branches", description = "W3 parallel steps (100)")
        Integer w3Branches;

        @Option(names = "--w3-batch", description = "W3 runs at once (20)")
        Integer w3Batch;

        @Option(names = "--w4-runs", description = "W4 runs (1000)")
        Integer w4Runs;

        @Option(names = "--w4-sleep-ms", description = "W4 sleep (1000)")
        Integer w4SleepMs;

        @Option(names = "--cost-runs", description = "cost: runs of the extra W1 (2000)")
        Integer costRuns;

        @Option(names = "--steps-small", description = "scale: short workflow steps (100)")
        Integer stepsSmall;

        @Option(names = "--steps-large", description = "scale: long workflow steps (1000)")
        Integer stepsLarge;

        @Option(names = "--history-steps", description = "scale: steps of the replayed history, 3 events each (3333)")
        Integer historySteps;

        @Option(names = "--sleepers", description = "scale: runs sleeping at once (100000)")
        Integer sleepers;

        @Option(names = "--w7-schedules", description = "W7 schedules firing every second (1000)")
        Integer w7Schedules;

        @Option(names = "--w7-seconds", description = "W7 seconds they fire (60)")
        Integer w7Seconds;

        @Option(names = "--w8-runs", description = "W8 runs fed to the rate-limited queue (5000)")
        Integer w8Runs;

        @Option(names = "--w8-rate", description = "W8 the queue's rate limit, starts per second (200)")
        Integer w8Rate;

        @Option(names = "--run-poll-ms", description = "primary-key lookup interval while waiting for one run (5)")
        Integer runPollMs;

        @Option(names = "--count-poll-ms", description = "count interval while waiting for many runs (50)")
        Integer countPollMs;

        @Option(names = "--search-runs", description = "SEARCH runs to search among (1,000,000)")
        Integer searchRuns;

        Sizes sizes() {
            Sizes b = smoke ? Sizes.smoke() : Sizes.defaults();
            return new Sizes(
                    or(w1Runs, b.w1Runs()),
                    or(w2Runs, b.w2Runs()),
                    w2IdleMs != null ? w2IdleMs : b.w2IdleMs(),
                    or(w3Branches, b.w3Branches()),
                    or(w3Batch, b.w3Batch()),
                    or(w4Runs, b.w4Runs()),
                    or(w4SleepMs, b.w4SleepMs()),
                    or(costRuns, b.costRuns()),
                    or(stepsSmall, b.stepsSmall()),
                    or(stepsLarge, b.stepsLarge()),
                    or(historySteps, b.historySteps()),
                    or(sleepers, b.sleepers()),
                    or(w7Schedules, b.w7Schedules()),
                    or(w7Seconds, b.w7Seconds()),
                    or(w8Runs, b.w8Runs()),
                    or(w8Rate, b.w8Rate()),
                    or(runPollMs, b.runPollMs()),
                    or(countPollMs, b.countPollMs()),
                    or(searchRuns, b.searchRuns()));
        }

        private static int or(Integer v, int d) {
            return v != null ? v : d;
        }

        int execute(List<String> worlds, List<Workload> workloads, int repeat, Sizes sizes) {
            Harness h = new Harness(
                    worlds,
                    workloads,
                    repeat,
                    sizes,
                    !noProgress,
                    out.toAbsolutePath().getParent().resolve("bench-logs"));
            Results results = h.run();
            Report report = h.report(results);
            report.print(System.out);
            report.writeJson(out);
            Chart.write(results, chart);
            System.out.println("\nJSON: " + out.toAbsolutePath() + "\nchart: " + chart.toAbsolutePath());
            return results.failures().isEmpty() ? 0 : 1;
        }
    }

    @Command(
            name = "all",
            mixinStandardHelpOptions = true,
            description = "Every workload against every world, each cell repeated; median and range.")
    static final class All implements Callable<Integer> {
        @Mixin
        Common common = new Common();

        @Option(
                names = "--repeat",
                defaultValue = "3",
                description = "repeats of each cell (default: ${DEFAULT-VALUE})")
        int repeat;

        @Option(names = "--worlds", split = ",", description = "worlds (default: local,postgres)")
        List<String> worlds;

        @Option(
                names = "--workloads",
                split = ",",
                description =
                        "workloads of ${COMPLETION-CANDIDATES} (default: all but W7 and W8, which run only when named)")
        List<Workload> workloads;

        @Override
        public Integer call() {
            return common.execute(
                    worlds != null ? worlds : Targets.DEFAULT,
                    workloads != null ? workloads : Workload.DEFAULT,
                    repeat,
                    common.sizes());
        }
    }

    @Command(name = "run", mixinStandardHelpOptions = true, description = "One workload on one world.")
    static final class Run implements Callable<Integer> {
        @Mixin
        Common common = new Common();

        @Option(
                names = {"-w", "--workload"},
                required = true,
                description = "${COMPLETION-CANDIDATES}")
        Workload workload;

        @Option(
                names = {"-W", "--world"},
                defaultValue = "postgres",
                description = "world (default: ${DEFAULT-VALUE})")
        String world;

        @Option(
                names = {"-n", "--runs"},
                description =
                        "the workload's main size: W1/W2/W4/W6/W8/COST runs, W3 branches, W5 children, W7 schedules, SCALE sleepers,"
                                + " LOOP continues, SEARCH runs")
        Integer runs;

        @Option(names = "--repeat", defaultValue = "1", description = "repeats (default: ${DEFAULT-VALUE})")
        int repeat;

        @Override
        public Integer call() {
            Sizes sizes = common.sizes();
            if (runs != null) {
                sizes = sizes.withMain(workload, runs);
            }
            return common.execute(List.of(world), List.of(workload), repeat, sizes);
        }
    }
}
