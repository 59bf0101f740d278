package io.worldflow.cli.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.worldflow.cli.ExitCodes;
import io.worldflow.runtime.Worldflow;
import io.worldflow.runtime.WorldflowConfig;
import io.worldflow.runtime.internal.WorldLoader;
import io.worldflow.spi.WorldConfig;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * How the command reaches runs, as its options say: a dashboard's API with {@code --server}, else the world the
 * configuration names (read as an application reads it, {@code -p} options added as builder properties).
 *
 * @param server     the dashboard's URL, or null to open the world
 * @param token      the dashboard's token, or null
 * @param properties the {@code -p key=value} options
 */
public record Connection(String server, String token, Map<String, String> properties) {

    /** The key that names the local world's file, and its default, as world-local reads them. */
    static final String LOCAL_PATH = "worldflow.local.path";

    static final String LOCAL_DEFAULT = "worldflow.db";

    public Connection {
        properties = Map.copyOf(properties);
    }

    /** Whether the command talks to a dashboard rather than to the world. */
    public boolean viaServer() {
        return server != null && !server.isBlank();
    }

    /** Opens what the options name: the dashboard's API, or the world, which must exist already. */
    public Backend open(ObjectMapper mapper) {
        if (viaServer()) {
            return new ServerBackend(HttpApi.root(server), token, mapper);
        }
        return new DirectBackend(openWorld(false));
    }

    /**
     * Opens the configured world with no worker. Opening a world creates or migrates its tables; unless {@code
     * create}, a local world whose file does not exist is refused instead, so that a command run in the wrong folder
     * says so rather than creating an empty world there.
     */
    public Worldflow openWorld(boolean create) {
        WorldConfig config = config();
        if (!create) {
            requireLocalFile(
                    config,
                    "name the application's file with -p " + LOCAL_PATH + "=FILE or -D" + LOCAL_PATH
                            + "=FILE, or use --server");
        }
        return Worldflow.builder()
                .fromConfig()
                .properties(properties)
                .actor(actor())
                .build();
    }

    /** The configuration as a world would read it, without opening one. */
    public WorldConfig config() {
        if (viaServer()) {
            throw new CliException(ExitCodes.USAGE, "this command reads the world itself and takes no --server");
        }
        return WorldflowConfig.load(properties, WorldLoader.knownKeys());
    }

    /** The {@code worldflow.*} keys of a properties file, as the runtime reads {@code worldflow.properties}. */
    static Map<String, String> read(Path file) {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            p.load(in);
        } catch (NoSuchFileException e) {
            throw new CliException(ExitCodes.USAGE, "--config " + file + ": no such file");
        } catch (IOException | IllegalArgumentException e) {
            throw new CliException(ExitCodes.USAGE, "--config " + file + ": cannot read it: " + e.getMessage(), e);
        }
        Map<String, String> out = new TreeMap<>();
        for (String name : p.stringPropertyNames()) {
            if (name.startsWith("worldflow.")) {
                out.put(name, p.getProperty(name));
            }
        }
        return out;
    }

    /**
     * Refuses a local world whose file does not exist, or is empty (SQLite takes an empty file for a new database), so
     * that a command run in the wrong folder says so rather than creating a world there; {@code hint} says how to name
     * the file.
     */
    static void requireLocalFile(WorldConfig config, String hint) {
        if ("local".equals(world(config))) {
            Path file = Path.of(config.get(LOCAL_PATH, LOCAL_DEFAULT)).toAbsolutePath();
            if (!Files.exists(file)) {
                throw new CliException(
                        ExitCodes.UNAVAILABLE, "no local world at " + file + " (" + LOCAL_PATH + "): " + hint);
            }
            try {
                if (Files.isRegularFile(file) && Files.size(file) == 0) {
                    throw new CliException(
                            ExitCodes.UNAVAILABLE,
                            "no local world at " + file + " (" + LOCAL_PATH + "): the file is empty; " + hint);
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    static String world(WorldConfig config) {
        return config.get(WorldflowConfig.WORLD, "local");
    }

    /** Who the world's log records as having acted through the command: {@code cli:<user>}. */
    static String actor() {
        String user = System.getProperty("user.name", "").strip();
        return "cli:" + (user.isEmpty() ? "unknown" : user);
    }
}
