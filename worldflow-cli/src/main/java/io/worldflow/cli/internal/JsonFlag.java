package io.worldflow.cli.internal;

import picocli.CommandLine.Option;

/** {@code --json}: one JSON document on standard output instead of a table, for scripts. */
public final class JsonFlag {

    @Option(names = "--json", description = "Print JSON for scripts instead of a table.")
    boolean on;
}
