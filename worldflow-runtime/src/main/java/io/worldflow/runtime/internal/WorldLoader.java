package io.worldflow.runtime.internal;

import io.worldflow.ConfigurationException;
import io.worldflow.runtime.WorldflowConfig;
import io.worldflow.spi.EventCodec;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldContext;
import io.worldflow.spi.WorldProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** Finds worlds on the classpath with {@link ServiceLoader} and opens the configured one. */
public final class WorldLoader {

    private static final Logger log = LoggerFactory.getLogger(WorldLoader.class);

    private WorldLoader() {}

    public static List<WorldProvider> providers() {
        List<WorldProvider> found = new ArrayList<>();
        ClassLoader cl = Thread.currentThread().getContextClassLoader();
        ServiceLoader.load(WorldProvider.class, cl != null ? cl : WorldLoader.class.getClassLoader())
                .forEach(found::add);
        return found;
    }

    /** Every configuration key the worlds on the classpath declare. */
    public static List<String> knownKeys() {
        List<String> keys = new ArrayList<>();
        for (WorldProvider p : providers()) {
            keys.addAll(p.configKeys().keySet());
        }
        return keys;
    }

    /** Hides credentials written into a URL: {@code password=…} parameters and {@code user:password@} parts. */
    static String maskUrlSecrets(String value) {
        return value.replaceAll("(?i)(password|secret|token)=[^&;]*", "$1=****")
                .replaceAll("//([^/@:]+):[^/@]*@", "//$1:****@");
    }

    public static World open(WorldConfig config, InstantSource clock, EventCodec codec) {
        String name = config.get(WorldflowConfig.WORLD, "local");
        List<WorldProvider> providers = providers();
        for (WorldProvider p : providers) {
            if (p.name().equals(name)) {
                TreeMap<String, String> shown = new TreeMap<>();
                config.asMap().forEach((k, v) -> {
                    if (k.startsWith("worldflow." + name + ".")) {
                        shown.put(k, k.contains("password") || k.contains("secret") ? "****" : maskUrlSecrets(v));
                    }
                });
                log.info("world '{}' {}", name, shown);
                return p.create(new WorldContext(config, clock, codec));
            }
        }
        List<String> names =
                providers.stream().map(WorldProvider::name).sorted().toList();
        throw new ConfigurationException(
                "unknown world '" + name + "' (" + WorldflowConfig.WORLD + "); worlds found on " + "the classpath: "
                        + (names.isEmpty() ? "none (add world-local, world-postgres or world-aws)" : names));
    }
}
