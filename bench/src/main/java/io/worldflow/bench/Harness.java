package io.worldflow.bench;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs workloads × worlds × repeats: one target at a time (its server started once), each cell on fresh storage
 * with its own worker JVM. A cell that fails is recorded and the others still run.
 */
final class Harness {

    private static final Logger log = LoggerFactory.getLogger(Harness.class);

    private final List<String> worlds;
    private final List<Workload> workloads;
    private final int repeat;
    private final Sizes sizes;
    private final boolean progress;
    private final Path logDir;
    private final Map<String, String> worldNotes = new LinkedHashMap<>();
    private Instant started;

    Harness(List<String> worlds, List<Workload> workloads, int repeat, Sizes sizes, boolean progress, Path logDir) {
        if (repeat < 1) {
            throw new IllegalArgumentException("repeat must be at least 1");
        }
        this.worlds = List.copyOf(worlds);
        this.workloads = List.copyOf(workloads);
        this.repeat = repeat;
        this.sizes = sizes;
        this.progress = progress;
        this.logDir = logDir;
    }

    Results run() {
        started = Instant.now();
        Results results = new Results();
        int cells = worlds.size() * workloads.size() * repeat;
        try (ProgressBar bar = progress
                ? new ProgressBarBuilder()
                        .setTaskName("bench")
                        .setInitialMax(cells)
                        .setStyle(ProgressBarStyle.ASCII)
                        .setUpdateIntervalMillis(500)
                        .build()
                : null) {
            Consumer<String> status = s -> {
                if (bar != null) {
                    bar.setExtraMessage(s);
                }
                log.info("{}", s);
            };
            for (String world : worlds) {
                status.accept("starting world " + world);
                try (Target target = Targets.start(world)) {
                    worldNotes.put(world, target.describe());
                    Sizes forWorld = target instanceof AwsTarget ? sizes.forEmulators() : sizes;
                    Workloads w = new Workloads(forWorld, logDir, s -> status.accept(world + " " + s));
                    for (int r = 1; r <= repeat; r++) {
                        for (Workload workload : workloads) {
                            if (workload == Workload.COST
                                    && target.costCounters().isEmpty()) {
                                step(bar);
                                continue;
                            }
                            try {
                                results.add(world, w.run(workload, target));
                            } catch (RuntimeException e) {
                                log.warn("{} {} #{} failed", world, workload, r, e);
                                results.failed(world, workload, r, e);
                            }
                            step(bar);
                        }
                    }
                } catch (RuntimeException e) {
                    log.warn("world {} failed", world, e);
                    results.failed(world, null, 0, e);
                }
            }
        }
        return results;
    }

    private static void step(ProgressBar bar) {
        if (bar != null) {
            bar.step();
        }
    }

    Report report(Results results) {
        return new Report(results, sizes, repeat, started, worldNotes);
    }
}
