package io.worldflow.cli.internal;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * A command of the tree: where it prints, and how the top command's options say to reach runs. A command that works
 * on runs extends {@link BackendCommand}; one that only reads configuration or the classpath extends this.
 */
public abstract class CliCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    protected final PrintWriter out() {
        return spec.commandLine().getOut();
    }

    protected final PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** The connection options given anywhere on the command line. */
    protected final Connection connection() {
        return ((RootCommand) spec.root().userObject()).connection();
    }
}
