package io.worldflow.world.local;

import io.worldflow.spi.World;
import io.worldflow.spi.WorldContext;
import io.worldflow.spi.WorldProvider;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code local} world: one SQLite file in WAL mode, owned by one process, with in-process wake-ups.
 *
 * <p>Configuration:
 * <ul>
 *   <li>{@value #PATH}: the database file, {@code worldflow.db} in the working directory by default
 *       (parent directories are created). A sibling {@code <path>.lock} marks the owning process.</li>
 *   <li>{@value #SYNCHRONOUS}: {@code FULL} (default) makes every commit durable against power loss;
 *       {@code NORMAL} is several times faster and still safe against a crash of the process, but the
 *       last commits may be lost if the machine loses power.</li>
 *   <li>{@value #BUSY_TIMEOUT}: how long a statement waits for a lock held by a checkpoint or a reader
 *       before failing with a transient error, {@code 5s} by default.</li>
 * </ul>
 */
public final class LocalWorldProvider implements WorldProvider {

    /** The name to put in {@code worldflow.world}. */
    public static final String NAME = "local";

    public static final String PATH = "worldflow.local.path";
    public static final String SYNCHRONOUS = "worldflow.local.synchronous";
    public static final String BUSY_TIMEOUT = "worldflow.local.busy-timeout";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, String> configKeys() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put(
                PATH,
                "SQLite database file (default worldflow.db in the working directory; parent directories are created)");
        keys.put(
                SYNCHRONOUS,
                "FULL (default: each commit survives power loss) or NORMAL (faster; survives a process crash only)");
        keys.put(BUSY_TIMEOUT, "how long to wait for a locked database before failing, e.g. 500ms or 5s (default 5s)");
        return Collections.unmodifiableMap(keys);
    }

    @Override
    public World create(WorldContext context) {
        return LocalWorld.open(context);
    }
}
