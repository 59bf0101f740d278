package io.worldflow.cli;

import io.worldflow.cli.internal.CancelCommand;
import io.worldflow.cli.internal.Failures;
import io.worldflow.cli.internal.MigrateCommand;
import io.worldflow.cli.internal.QueuesCommand;
import io.worldflow.cli.internal.ReplayCommand;
import io.worldflow.cli.internal.RetryCommand;
import io.worldflow.cli.internal.RootCommand;
import io.worldflow.cli.internal.RunsCommand;
import io.worldflow.cli.internal.SchedulesCommand;
import io.worldflow.cli.internal.SchemaCommand;
import io.worldflow.cli.internal.SignalCommand;
import io.worldflow.cli.internal.SignalUrlCommand;
import io.worldflow.cli.internal.VerifyCommand;
import io.worldflow.cli.internal.WorldsCommand;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The {@code worldflow} command: {@code java -jar worldflow-cli.jar runs list}. Every failure ends it with one line on
 * standard error and an exit status of {@link ExitCodes} ({@code --verbose} adds the stack trace).
 */
public final class WorldflowCli {

    /** The commands under {@code worldflow}, in the order its help lists them: a new command is one class here. */
    private static final List<Class<?>> COMMANDS = List.of(
            RunsCommand.class,
            SignalCommand.class,
            SignalUrlCommand.class,
            CancelCommand.class,
            RetryCommand.class,
            VerifyCommand.class,
            SchedulesCommand.class,
            QueuesCommand.class,
            SchemaCommand.class,
            ReplayCommand.class,
            MigrateCommand.class,
            WorldsCommand.class);

    private WorldflowCli() {}

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs one command line, printing to this process's standard output and error; returns its exit status. */
    public static int execute(String... args) {
        return run(
                args,
                new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                new PrintWriter(System.err, true, StandardCharsets.UTF_8));
    }

    /** Runs one command line, printing to {@code out} and {@code err}; returns its exit status. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        try {
            return commandLine(out, err).execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    private static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        RootCommand root = new RootCommand();
        CommandLine cli = new CommandLine(root);
        // set before the commands are added, which inherit it: every command's help ends with the exit statuses
        cli.getCommandSpec().usageMessage().footer(ExitCodes.footer());
        for (Class<?> command : COMMANDS) {
            cli.addSubcommand(command);
        }
        cli.addSubcommand(new CommandLine.HelpCommand());
        return cli.setOut(out)
                .setErr(err)
                .setCaseInsensitiveEnumValuesAllowed(true)
                // a run id may begin with '-' (those generated before ids began with a letter): an argument that is
                // no option of the command is its id, not an unknown option
                .setUnmatchedOptionsArePositionalParams(true)
                .setParameterExceptionHandler((e, args) -> {
                    // one line naming what was wrong and where the help is, not the whole usage
                    String command = e.getCommandLine().getCommandSpec().qualifiedName();
                    e.getCommandLine()
                            .getErr()
                            .println("worldflow: " + oneLine(e.getMessage()) + " (see '" + command + " --help')");
                    return ExitCodes.USAGE;
                })
                .setExecutionExceptionHandler((e, command, parsed) -> {
                    if (root.verbose()) {
                        e.printStackTrace(command.getErr());
                    }
                    command.getErr().println("worldflow: " + Failures.message(e));
                    return Failures.exitCode(e);
                });
    }

    private static String oneLine(String message) {
        return message == null ? "bad usage" : message.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
