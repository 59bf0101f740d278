package io.worldflow.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** The command run in this JVM, its output captured: for the many cheap checks of what it accepts. */
final class InProcessCli {

    private InProcessCli() {}

    static CliResult run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = WorldflowCli.run(args, new PrintWriter(out), new PrintWriter(err));
        return new CliResult(exit, out.toString(), err.toString());
    }
}
