package io.worldflow.cli.internal;

import io.worldflow.cli.ExitCodes;
import io.worldflow.runtime.TimelineText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code worldflow runs timeline ID}: a run's log as text, one line per event. */
@Command(
        name = "timeline",
        description = "A run's log, one line per event: its seq, its time since the run began, its type and what it"
                + " says. With --json, the log as a saved history.")
final class TimelineCommand extends BackendCommand {

    @Parameters(paramLabel = "ID", description = "The run's id.")
    String runId;

    @Mixin
    JsonFlag json;

    @Override
    protected int run(Backend backend) {
        if (json.on) {
            out().println(backend.history(runId));
        } else {
            out().print(TimelineText.render(backend.events(runId)));
        }
        out().flush();
        return ExitCodes.OK;
    }
}
