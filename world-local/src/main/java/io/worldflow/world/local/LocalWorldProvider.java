package io.worldflow.world.local;

import io.worldflow.spi.World;
import io.worldflow.spi.WorldContext;
import io.worldflow.spi.WorldProvider;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code local} world: one SQLite file in WAL mode, owned by one process (a sibling {@code <path>.lock} marks
 * it), with in-process wake-ups. Its configuration keys and their defaults: {@link #configKeys()}.
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
