package io.worldflow.cli.internal;

import io.worldflow.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code worldflow cancel ID}: asks a run to cancel, or ends it at once with {@code --terminate}. */
@Command(
        name = "cancel",
        description = "Asks a run to cancel: it ends CANCELED at its next primitive, its cleanup code still running."
                + " With --terminate it ends without running any more of its code.")
public final class CancelCommand extends BackendCommand {

    @Parameters(paramLabel = "ID", description = "The run's id.")
    String runId;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why, recorded in the run's log.")
    String reason;

    @Option(names = "--terminate", description = "End it without running any more of its code, no cleanup included.")
    boolean terminate;

    @Override
    protected int run(Backend backend) {
        backend.cancel(runId, reason, terminate);
        out().println((terminate ? "termination" : "cancellation") + " of run " + runId
                + " requested: a worker carries it out at the run's next turn");
        out().flush();
        return ExitCodes.OK;
    }
}
