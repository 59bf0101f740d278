package io.worldflow.cli.internal;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The top of the command tree: the options that say how to reach runs, which every command takes (before or after
 * its name), and the help every command inherits.
 */
@Command(
        name = "worldflow",
        scope = ScopeType.INHERIT,
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        usageHelpAutoWidth = true,
        description = {
            "Reads and acts on the runs of a Worldflow world: lists, timelines, exports, signals, cancellation,"
                    + " retries, hash-chain checks, schedules and schemas.",
            "",
            "The world is the one the configuration names, read as an application reads it (WORLDFLOW_* environment"
                    + " variables, -D system properties, worldflow.properties), plus --config and -p options;"
                    + " no worker is started. With --server, the command goes through a running dashboard's HTTP API"
                    + " instead (the way in to a local world, whose file belongs to the application running it).",
        })
public final class RootCommand extends CommandGroup {

    /** The system property logback.xml reads for the level of Worldflow's own loggers. */
    static final String LOG_LEVEL = "worldflow-cli.log";

    @Option(
            names = "--server",
            paramLabel = "URL",
            scope = ScopeType.INHERIT,
            description = "A running dashboard's URL (http://127.0.0.1:7070): go through its HTTP API, not the world.")
    String server;

    @Option(
            names = "--token",
            paramLabel = "TOKEN",
            scope = ScopeType.INHERIT,
            defaultValue = "${env:WORLDFLOW_TOKEN}",
            description = "The dashboard token for --server (default: the WORLDFLOW_TOKEN environment variable).")
    String token;

    private boolean verbose;

    /** Set before anything logs: logback reads its configuration when the first logger is made. */
    @Option(
            names = "--verbose",
            scope = ScopeType.INHERIT,
            description = "Print a failure's stack trace, not only its one line, and what the world logs.")
    void verbose(boolean value) {
        verbose |= value;
        if (verbose) {
            System.setProperty(LOG_LEVEL, "INFO");
        }
    }

    @Option(
            names = "--config",
            paramLabel = "FILE",
            scope = ScopeType.INHERIT,
            description = "A worldflow.properties file, read as an application reads its own from the classpath"
                    + " (-p options, WORLDFLOW_* variables and -D properties override it).")
    Path configFile;

    private final Map<String, String> properties = new LinkedHashMap<>();

    /** Every {@code -p}, wherever given: picocli sets an inherited option once per command level it appears on. */
    @Option(
            names = {"-p", "--property"},
            paramLabel = "KEY=VALUE",
            scope = ScopeType.INHERIT,
            description = "A configuration value, as Worldflow.builder().property(key, value) gives one"
                    + " (worldflow.local.path=app.db); system properties and WORLDFLOW_* variables override it.")
    void property(Map<String, String> values) {
        properties.putAll(values);
    }

    /** How the options say to reach runs. */
    public Connection connection() {
        Map<String, String> all = new LinkedHashMap<>();
        if (configFile != null) {
            all.putAll(Connection.read(configFile));
        }
        all.putAll(properties);
        return new Connection(server, token, all);
    }

    public boolean verbose() {
        return verbose;
    }
}
