package io.worldflow.world.local;

import io.worldflow.ConfigurationException;
import io.worldflow.spi.WorldConfig;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * The local world's configuration, validated.
 *
 * @param path        the database file, absolute
 * @param synchronous SQLite's {@code synchronous} setting
 * @param busyTimeout how long a statement waits for a lock
 */
record LocalSettings(Path path, Synchronous synchronous, Duration busyTimeout) {

    static final String DEFAULT_PATH = "worldflow.db";
    static final Duration DEFAULT_BUSY_TIMEOUT = Duration.ofSeconds(5);

    /** The durability levels offered. */
    enum Synchronous {
        /** Each commit is synced to disk: durable against power loss. */
        FULL,
        /** The WAL is synced at checkpoints only: durable against a process crash, faster. */
        NORMAL
    }

    LocalSettings {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(synchronous, "synchronous");
        Objects.requireNonNull(busyTimeout, "busyTimeout");
    }

    static LocalSettings from(WorldConfig config) {
        return new LocalSettings(
                path(config),
                synchronous(config),
                config.getDuration(
                        LocalWorldProvider.BUSY_TIMEOUT,
                        DEFAULT_BUSY_TIMEOUT,
                        Duration.ZERO,
                        Duration.ofMillis(Integer.MAX_VALUE)));
    }

    /** The file whose lock marks the process that owns the database. */
    Path lockFile() {
        return path.resolveSibling(path.getFileName() + ".lock");
    }

    int busyTimeoutMillis() {
        return (int) busyTimeout.toMillis();
    }

    private static Path path(WorldConfig config) {
        String text = config.get(LocalWorldProvider.PATH, DEFAULT_PATH);
        try {
            Path path = Path.of(text).toAbsolutePath().normalize();
            if (path.getFileName() == null) {
                throw new ConfigurationException(LocalWorldProvider.PATH + " must name a file, was '" + text + "'");
            }
            return path;
        } catch (InvalidPathException e) {
            throw new ConfigurationException(LocalWorldProvider.PATH + " is not a valid path: '" + text + "'", e);
        }
    }

    private static Synchronous synchronous(WorldConfig config) {
        String text = config.get(LocalWorldProvider.SYNCHRONOUS, Synchronous.FULL.name());
        try {
            return Synchronous.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(
                    LocalWorldProvider.SYNCHRONOUS + " must be FULL or NORMAL, was '" + text + "'", e);
        }
    }
}
