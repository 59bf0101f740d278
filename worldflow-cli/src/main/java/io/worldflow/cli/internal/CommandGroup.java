package io.worldflow.cli.internal;

import io.worldflow.cli.ExitCodes;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** A command that only groups subcommands: given alone, it prints its usage and exits with a usage error. */
abstract class CommandGroup implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }
}
