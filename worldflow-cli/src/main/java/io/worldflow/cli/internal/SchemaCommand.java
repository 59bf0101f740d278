package io.worldflow.cli.internal;

import io.worldflow.cli.ExitCodes;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.WorldConfig;
import picocli.CommandLine.Command;

import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code worldflow schema …}: the SQL schema of the configured world, printed for a DBA to review, or brought up to
 * date now rather than when the first worker starts. Both read the world itself: there is no {@code --server} form.
 */
@Command(
        name = "schema",
        description = "Print the configured SQL world's schema, or create and migrate it now.",
        subcommands = {SchemaCommand.Print.class, SchemaCommand.Migrate.class})
public final class SchemaCommand extends CommandGroup {

    @Command(
            name = "print",
            description = "Prints the SQL of the configured world's migrations (local or postgres), as it applies them;"
                    + " no database is contacted. For postgres, one script under the world's lock that records each"
                    + " version, for worldflow.postgres.schema and .table-prefix.")
    static final class Print extends CliCommand {

        @Override
        public Integer call() {
            WorldConfig config = connection().config();
            String world = Connection.world(config);
            switch (world) {
                case "postgres" -> out().print(postgresScript(config));
                case "local" -> out().print(localScript());
                default ->
                    throw new CliException(
                            ExitCodes.USAGE,
                            "world '" + world + "' keeps no SQL schema to print"
                                    + ("aws".equals(world)
                                            ? ": it creates its DynamoDB tables and SQS queues when missing"
                                                    + " ('worldflow schema migrate' does so now)"
                                            : " (the SQL worlds are local and postgres)"));
            }
            out().flush();
            return ExitCodes.OK;
        }

        private static String localScript() {
            List<SchemaScripts.Script> scripts = SchemaScripts.of("local");
            StringBuilder out = new StringBuilder("-- Worldflow local world (SQLite): schema version "
                    + scripts.getLast().version() + ".\n-- The world applies each missing script when it opens"
                    + " its file, in one transaction, and records it in schema_version.\n");
            for (SchemaScripts.Script s : scripts) {
                out.append("\n-- ")
                        .append(s.name())
                        .append('\n')
                        .append(s.sql().strip())
                        .append('\n');
            }
            return out.toString();
        }

        /**
         * world-postgres's own printable script ({@code PrintSchema.migrationSql}), which renders the schema and prefix
         * and records each version as the world does. The world is on the classpath to be found by configuration,
         * not compiled against, so its one public entry point is looked up by name.
         */
        private static String postgresScript(WorldConfig config) {
            try {
                return (String) Class.forName("io.worldflow.world.postgres.PrintSchema")
                        .getMethod("migrationSql", WorldConfig.class)
                        .invoke(null, config);
            } catch (ClassNotFoundException e) {
                throw new CliException(ExitCodes.USAGE, "the postgres world is not on the classpath", e);
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("world-postgres's PrintSchema.migrationSql cannot be called", e);
            }
        }
    }

    @Command(
            name = "migrate",
            description = "Opens the configured world, which creates its tables or migrates them to the newest version"
                    + " this command knows (a local world's file is created when missing), then closes it.")
    static final class Migrate extends CliCommand {

        @Override
        public Integer call() {
            WorldConfig config = connection().config();
            String world = Connection.world(config);
            try (Worldflow wf = connection().openWorld(true)) {
                // opening is the migration: the world applies what is missing under its lock, or refuses a newer schema
                wf.world();
            }
            out().println(describe(world, config)
                    + (SchemaScripts.isSqlWorld(world)
                            ? ": schema at version "
                                    + SchemaScripts.of(world).getLast().version()
                            : ": tables and queues in place"));
            out().flush();
            return ExitCodes.OK;
        }

        private static String describe(String world, WorldConfig config) {
            return switch (world) {
                case "local" ->
                    "local world at "
                            + Path.of(config.get(Connection.LOCAL_PATH, Connection.LOCAL_DEFAULT))
                                    .toAbsolutePath()
                                    .normalize();
                case "postgres" ->
                    "postgres world (schema " + config.get("worldflow.postgres.schema", "worldflow") + ", table prefix "
                            + config.get("worldflow.postgres.table-prefix", "wf_") + ")";
                default -> "world '" + world + "'";
            };
        }
    }
}
