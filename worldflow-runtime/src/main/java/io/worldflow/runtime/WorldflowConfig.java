package io.worldflow.runtime;

import io.worldflow.ConfigurationException;
import io.worldflow.runtime.internal.UnknownKeys;
import io.worldflow.spi.WorldConfig;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Loads configuration from, highest precedence first: system properties ({@code -Dworldflow.x=…}),
 * environment variables ({@code WORLDFLOW_X}: the key upper-cased, dots and dashes as underscores),
 * properties given to the builder, {@code worldflow.properties} on the classpath, and the defaults.
 * Only keys starting with {@code worldflow.} are read.
 */
public final class WorldflowConfig {

    public static final String WORLD = "worldflow.world";
    public static final String FILE = "worldflow.properties";

    /** The runtime's own keys with their defaults ({@link RetentionOptions#KEEP_FOR} has none: runs are kept for ever). */
    public static final Map<String, String> DEFAULTS = Map.of(
            WORLD,
            "local",
            WorkerOptions.CONCURRENCY,
            "100",
            WorkerOptions.QUEUES,
            "default",
            WorkerOptions.LEASE,
            "30s",
            WorkerOptions.POLL_INTERVAL,
            "1s",
            WorkerOptions.SHUTDOWN_GRACE,
            "10s",
            WorkerOptions.STICKY_WAIT,
            "200ms",
            WorkerOptions.HOLD_RETRY,
            "60s",
            RetentionOptions.INTERVAL,
            "1m",
            RetentionOptions.BATCH,
            "500");

    private WorldflowConfig() {}

    /** Resolves configuration from every source. {@code knownKeys} lets dashed keys be found in the environment. */
    public static WorldConfig load(Map<String, String> builderProperties, Collection<String> knownKeys) {
        return load(
                builderProperties,
                knownKeys,
                System.getenv(),
                System.getProperties(),
                Thread.currentThread().getContextClassLoader());
    }

    static WorldConfig load(
            Map<String, String> builderProperties,
            Collection<String> knownKeys,
            Map<String, String> env,
            Properties system,
            ClassLoader loader) {
        Map<String, String> merged = new TreeMap<>(DEFAULTS);
        merged.putAll(fromFile(loader));
        builderProperties.forEach((k, v) -> put(merged, k, v));
        merged.putAll(fromEnvironment(env, knownKeys));
        for (String name : system.stringPropertyNames()) {
            if (name.startsWith("worldflow.")) {
                merged.put(name, system.getProperty(name));
            }
        }
        return WorldConfig.of(merged);
    }

    private static void put(Map<String, String> map, String key, String value) {
        if (!key.startsWith("worldflow.")) {
            throw new ConfigurationException("configuration keys start with 'worldflow.', not '" + key + "'");
        }
        map.put(key, value);
    }

    private static Map<String, String> fromFile(ClassLoader loader) {
        Map<String, String> out = new HashMap<>();
        if (loader == null) {
            loader = WorldflowConfig.class.getClassLoader();
        }
        try (InputStream in = loader.getResourceAsStream(FILE)) {
            if (in == null) {
                return out;
            }
            Properties p = new Properties();
            p.load(in);
            for (String name : p.stringPropertyNames()) {
                if (name.startsWith("worldflow.")) {
                    out.put(name, p.getProperty(name));
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigurationException("cannot read " + FILE + " from the classpath: " + e.getMessage(), e);
        }
        return out;
    }

    static Map<String, String> fromEnvironment(Map<String, String> env, Collection<String> knownKeys) {
        Map<String, String> out = new HashMap<>();
        Map<String, String> byEnvName = new HashMap<>();
        for (String key : knownKeys) {
            byEnvName.put(envName(key), key);
        }
        for (String key : DEFAULTS.keySet()) {
            byEnvName.put(envName(key), key);
        }
        env.forEach((name, value) -> {
            if (!name.startsWith("WORLDFLOW_") || name.startsWith("WORLDFLOW_TEST_")) {
                return;
            }
            String key = byEnvName.get(name);
            if (key == null) {
                key = name.toLowerCase(Locale.ROOT).replace('_', '.');
            }
            out.put(key, value);
        });
        return out;
    }

    /**
     * For a module that reads keys of a namespace of its own ({@code worldflow.dashboard.}): a warning for each key of
     * {@code config} in it that is none of {@code known}, naming the known key it most looks like. The runtime warns
     * of its own namespaces' and the worlds' unknown keys when it is built.
     */
    public static List<String> unknownKeys(WorldConfig config, String namespace, Collection<String> known) {
        return UnknownKeys.check(config, namespace, known);
    }

    /** {@code worldflow.local.busy-timeout} → {@code WORLDFLOW_LOCAL_BUSY_TIMEOUT}. */
    public static String envName(String key) {
        return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }
}
