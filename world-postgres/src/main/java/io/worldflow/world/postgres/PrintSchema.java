package io.worldflow.world.postgres;

import io.worldflow.ConfigurationException;
import io.worldflow.spi.WorldConfig;

import java.util.Map;
import java.util.TreeMap;

/**
 * Prints the SQL that creates the Postgres world's schema, for a DBA to review or apply by hand (the world
 * applies the same on start when the tables are missing, and then finds them current). Schema and table
 * prefix come from {@value PostgresWorldProvider#SCHEMA} and {@value PostgresWorldProvider#TABLE_PREFIX}:
 *
 * <pre>
 * java -Dworldflow.postgres.schema=orders -cp ... io.worldflow.world.postgres.PrintSchema &gt; worldflow.sql
 * </pre>
 */
public final class PrintSchema {

    private PrintSchema() {}

    /**
     * The migration script for the schema and table prefix of {@code config} (no database is contacted,
     * and no URL is needed).
     *
     * @throws ConfigurationException when the schema or prefix is not a plain lower-case identifier
     */
    public static String migrationSql(WorldConfig config) {
        return Migrations.printable(PgSettings.namesOnly(config));
    }

    /** Prints {@link #migrationSql} for the {@code -Dworldflow.postgres.*} system properties. */
    public static void main(String[] args) {
        if (args.length > 0) {
            System.err.println("usage: java [-D" + PostgresWorldProvider.SCHEMA + "=worldflow] [-D"
                    + PostgresWorldProvider.TABLE_PREFIX + "=wf_] " + PrintSchema.class.getName());
            System.exit(2);
        }
        Map<String, String> values = new TreeMap<>();
        System.getProperties().forEach((k, v) -> {
            if (k.toString().startsWith("worldflow.")) {
                values.put(k.toString(), v.toString());
            }
        });
        try {
            System.out.print(migrationSql(WorldConfig.of(values)));
        } catch (ConfigurationException e) {
            System.err.println(e.getMessage());
            System.exit(1);
        }
    }
}
