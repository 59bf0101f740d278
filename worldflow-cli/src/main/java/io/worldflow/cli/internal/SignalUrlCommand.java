package io.worldflow.cli.internal;

import io.worldflow.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Duration;

/** {@code worldflow signal-url ID NAME --ttl PT1H}: a signed URL that delivers a signal when JSON is POSTed to it. */
@Command(
        name = "signal-url",
        description = "Makes a signed URL that delivers signal NAME to the run when a JSON body is POSTed to it, until"
                + " it expires. Directly, it needs worldflow.signal.url and worldflow.signal.secret configured;"
                + " through --server, the dashboard's own.")
public final class SignalUrlCommand extends BackendCommand {

    @Parameters(index = "0", paramLabel = "ID", description = "The run's id.")
    String runId;

    @Parameters(index = "1", paramLabel = "NAME", description = "The signal's name.")
    String name;

    @Option(
            names = "--ttl",
            paramLabel = "DURATION",
            defaultValue = "P1D",
            converter = Inputs.DurationConverter.class,
            description = "How long it works: PT1H, 30m, 2d (default a day, at most 366 days).")
    Duration ttl;

    @Option(names = "--single-use", description = "It delivers one signal only.")
    boolean singleUse;

    @Override
    protected int run(Backend backend) {
        out().println(backend.signalUrl(runId, name, ttl, singleUse));
        out().flush();
        return ExitCodes.OK;
    }
}
