package io.worldflow.spring.internal;

import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;

import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code worldflow.*} properties of the Spring environment ({@code application.properties}, YAML, profiles,
 * command-line arguments), each resolved by the environment, so that the one that wins in Spring wins here too.
 */
public final class WorldflowProperties {

    private static final String PREFIX = "worldflow.";

    private WorldflowProperties() {}

    public static Map<String, String> of(ConfigurableEnvironment environment) {
        Map<String, String> found = new TreeMap<>();
        for (PropertySource<?> source : environment.getPropertySources()) {
            if (source instanceof EnumerablePropertySource<?> enumerable) {
                for (String name : enumerable.getPropertyNames()) {
                    if (name.startsWith(PREFIX) && !found.containsKey(name)) {
                        String value = environment.getProperty(name);
                        if (value != null) {
                            found.put(name, value);
                        }
                    }
                }
            }
        }
        return found;
    }
}
