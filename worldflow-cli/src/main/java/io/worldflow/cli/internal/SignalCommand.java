package io.worldflow.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.worldflow.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;

/** {@code worldflow signal ID NAME --json …}: a signal to a run, kept until the run waits for it. */
@Command(
        name = "signal",
        description = "Sends a signal to a run; it is kept until the run waits for it. The payload is JSON, which the"
                + " run reads as the type it waits for.")
public final class SignalCommand extends BackendCommand {

    @Parameters(index = "0", paramLabel = "ID", description = "The run's id.")
    String runId;

    @Parameters(index = "1", paramLabel = "NAME", description = "The signal's name.")
    String name;

    @Option(names = "--json", paramLabel = "JSON", description = "The payload: '{\"approved\":true}' (default null).")
    String json;

    @Option(names = "--json-file", paramLabel = "FILE", description = "The payload from a file (- for stdin).")
    Path jsonFile;

    private JsonNode payload;

    @Override
    protected void check() {
        if (json != null && jsonFile != null) {
            throw new CliException(ExitCodes.USAGE, "give the payload with --json or --json-file, not both");
        }
        payload = Inputs.payload(json, jsonFile);
    }

    @Override
    protected int run(Backend backend) {
        backend.signal(runId, name, payload);
        out().println("signal '" + name + "' sent to run " + runId);
        out().flush();
        return ExitCodes.OK;
    }
}
