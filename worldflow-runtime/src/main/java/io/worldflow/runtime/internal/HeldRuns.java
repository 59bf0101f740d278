package io.worldflow.runtime.internal;

import io.worldflow.RunInfo;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.spi.World;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Held runs of the workflows a starting worker registers, made due at once. A worker that starts is most often a
 * new deploy, and the fix a held run waits for: without this it would resume only after the hold-retry interval.
 * A run whose code still does not match is simply held again.
 */
final class HeldRuns {

    private static final Logger log = LoggerFactory.getLogger(HeldRuns.class);

    private HeldRuns() {}

    /**
     * Makes every held run of {@code workflows} due now; returns how many. One look over the held runs, which the
     * worlds index apart because they are few. Best effort: a failure is logged, quietly when the worker has stopped
     * meanwhile ({@code stopped}), which closes the world under the look.
     */
    static int retry(World world, Set<String> workflows, Instant now, BooleanSupplier stopped) {
        int retried = 0;
        try {
            RunQuery query = RunQuery.all().withHeld(true).withLimit(RunQuery.MAX_LIMIT);
            RunPage page = world.runQueries().list(query);
            while (true) {
                for (RunInfo run : page.runs()) {
                    if (workflows.contains(run.workflow())) {
                        world.taskQueue().enqueue(run.runId(), now);
                        retried++;
                    }
                }
                if (!page.hasMore()) {
                    break;
                }
                page = world.runQueries().list(query.withCursor(page.nextCursor()));
            }
        } catch (RuntimeException e) {
            if (stopped.getAsBoolean()) {
                log.debug("the look for held runs ended with the worker ({})", e.toString());
            } else {
                log.warn("could not look for held runs ({}); they resume at their hold-retry time", e.toString());
            }
        }
        if (retried > 0) {
            log.info(
                    "{} held run(s) of the registered workflows made due: a new deploy may match their history",
                    retried);
        }
        return retried;
    }
}
