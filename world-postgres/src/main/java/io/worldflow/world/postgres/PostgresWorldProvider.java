package io.worldflow.world.postgres;

import io.worldflow.spi.World;
import io.worldflow.spi.WorldContext;
import io.worldflow.spi.WorldProvider;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code postgres} world: one PostgreSQL database (version 13 or later) shared by any number of worker
 * processes. Turns are claimed with {@code FOR UPDATE SKIP LOCKED}; idle workers are woken by
 * {@code LISTEN/NOTIFY}. The schema is created or migrated on start, under an advisory lock, and can be
 * printed for a DBA with {@link PrintSchema}. Its configuration keys and their defaults: {@link #configKeys()}.
 */
public final class PostgresWorldProvider implements WorldProvider {

    /** The name to put in {@code worldflow.world}. */
    public static final String NAME = "postgres";

    public static final String URL = "worldflow.postgres.url";
    public static final String USER = "worldflow.postgres.user";
    public static final String PASSWORD = "worldflow.postgres.password";
    public static final String SCHEMA = "worldflow.postgres.schema";
    public static final String TABLE_PREFIX = "worldflow.postgres.table-prefix";
    public static final String POOL_SIZE = "worldflow.postgres.pool-size";
    public static final String STARTUP_TIMEOUT = "worldflow.postgres.startup-timeout";
    public static final String VACUUM_TASKS = "worldflow.postgres.vacuum-tasks";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, String> configKeys() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put(URL, "JDBC URL of the database, e.g. jdbc:postgresql://db.example.com:5432/app (required)");
        keys.put(USER, "database user (unless the URL names one)");
        keys.put(PASSWORD, "database password (unless the URL carries one)");
        keys.put(SCHEMA, "schema holding Worldflow's tables (default worldflow; created if missing)");
        keys.put(TABLE_PREFIX, "prefix of every table name, lower-case letters, digits and _ (default wf_)");
        keys.put(POOL_SIZE, "connections in the pool (default 10; a worker also holds one for LISTEN)");
        keys.put(STARTUP_TIMEOUT, "how long to keep trying to reach the database on start, e.g. 30s (default 60s)");
        keys.put(VACUUM_TASKS, "whether each process vacuums the tasks table as turns churn through it (default true)");
        return Collections.unmodifiableMap(keys);
    }

    @Override
    public World create(WorldContext context) {
        return PostgresWorld.open(context);
    }
}
