package io.worldflow.cli.internal;

import io.worldflow.cli.ExitCodes;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;

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

    /**
     * Prints a listing: with {@code json}, one document {@code {"<key>": [...]}}; else {@code none} when there is
     * nothing, or {@code table} with one {@code row} per item.
     */
    protected final <T> int printList(
            boolean json, String key, List<T> all, String none, Table table, BiConsumer<Table, T> row) {
        if (json) {
            JsonOutput.print(out(), Map.of(key, all));
            return ExitCodes.OK;
        }
        if (all.isEmpty()) {
            out().println(none);
            out().flush();
            return ExitCodes.OK;
        }
        all.forEach(item -> row.accept(table, item));
        table.print(out());
        return ExitCodes.OK;
    }

    /** The connection options given anywhere on the command line. */
    protected final Connection connection() {
        return ((RootCommand) spec.root().userObject()).connection();
    }
}
