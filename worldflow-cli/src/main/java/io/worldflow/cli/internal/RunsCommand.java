package io.worldflow.cli.internal;

import io.worldflow.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code worldflow runs …}: reading runs. */
@Command(
        name = "runs",
        description = "List runs, show one, print its timeline, export saved histories.",
        subcommands = {ListRunsCommand.class, ShowRunCommand.class, TimelineCommand.class, ExportCommand.class})
public final class RunsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    /** {@code worldflow runs} alone: its subcommands. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }
}
