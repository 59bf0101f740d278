package io.worldflow.cli.internal;

import picocli.CommandLine.Command;

/** {@code worldflow runs …}: reading runs. */
@Command(
        name = "runs",
        description = "List runs, show one, print its timeline, export saved histories.",
        subcommands = {ListRunsCommand.class, ShowRunCommand.class, TimelineCommand.class, ExportCommand.class})
public final class RunsCommand extends CommandGroup {}
