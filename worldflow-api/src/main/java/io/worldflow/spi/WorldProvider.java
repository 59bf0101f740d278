package io.worldflow.spi;

import java.util.Map;

/**
 * Makes a {@link World} from configuration. Found with {@link java.util.ServiceLoader}: list the
 * implementation in {@code META-INF/services/io.worldflow.spi.WorldProvider}.
 */
public interface WorldProvider {

    /** The name users put in {@code worldflow.world}, e.g. {@code local}. */
    String name();

    /** The configuration keys this world reads, each with a one-line description (for docs and errors). */
    default Map<String, String> configKeys() {
        return Map.of();
    }

    /**
     * Opens the world: connects, creates or migrates its schema.
     *
     * @throws io.worldflow.ConfigurationException when the configuration is wrong
     * @throws io.worldflow.WorldException         when the store cannot be reached or is unusable
     */
    World create(WorldContext context);
}
