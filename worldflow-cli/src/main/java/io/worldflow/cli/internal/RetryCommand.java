package io.worldflow.cli.internal;

import io.worldflow.cli.ExitCodes;
import io.worldflow.event.Event;
import io.worldflow.event.StepFailed;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;

/**
 * {@code worldflow retry ID}: a failed run runs again from the step whose failure ended it, that step with a fresh
 * retry budget and every step before it keeping its result; when the workflow code itself failed, from its last
 * recorded step. Worldflow chooses that step, so {@code --from-step} only states which one the caller expects.
 */
@Command(
        name = "retry",
        description = "Runs a FAILED run again from the step whose failure ended it (a fresh retry budget for that"
                + " step; every step before it keeps its result). --from-step STEP refuses the retry, changing"
                + " nothing, when that is not the step it would start from.")
public final class RetryCommand extends BackendCommand {

    @Parameters(paramLabel = "ID", description = "The run's id.")
    String runId;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why, recorded in the run's log.")
    String reason;

    @Option(
            names = "--from-step",
            paramLabel = "STEP",
            description = "The step id the retry is expected to start from (the one that failed).")
    String fromStep;

    @Override
    protected int run(Backend backend) {
        // a run that did not fail is refused by the retry itself, naming its status
        boolean failedRun = backend.run(runId).status().equals("FAILED");
        String failed = failedRun ? failedStep(backend.events(runId)) : null;
        if (failedRun && fromStep != null && !fromStep.equals(failed)) {
            throw new CliException(
                    ExitCodes.USAGE,
                    "run " + runId + " would be retried from "
                            + (failed == null
                                    ? "its last recorded step (its workflow code failed)"
                                    : "step '" + failed + "'")
                            + ", not from step '" + fromStep + "': a retry starts where the run failed");
        }
        backend.retry(runId, reason);
        out().println("run " + runId + " retried from "
                + (failed == null ? "its last recorded step" : "step '" + failed + "'")
                + ": a worker runs it at its next turn");
        out().flush();
        return ExitCodes.OK;
    }

    /** The step whose last failure the log records, where a retry starts; null when no step failed. */
    private static String failedStep(List<Event> events) {
        for (int i = events.size() - 1; i >= 0; i--) {
            if (events.get(i) instanceof StepFailed f) {
                return f.stepId();
            }
        }
        return null;
    }
}
