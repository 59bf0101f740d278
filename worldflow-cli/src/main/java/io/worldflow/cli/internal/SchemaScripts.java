package io.worldflow.cli.internal;

import io.worldflow.cli.ExitCodes;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The versioned SQL migrations of a SQL world, as its jar holds them ({@code migrations/V<n>__<what>.sql} beside its
 * classes), found on the classpath whether that is a folder of classes, the world's jar or this command's own jar.
 */
final class SchemaScripts {

    /** Where each SQL world keeps its migrations. */
    private static final Map<String, String> FOLDERS = Map.of(
            "local", "io/worldflow/world/local/migrations/",
            "postgres", "io/worldflow/world/postgres/migrations/");

    private static final Pattern SCRIPT = Pattern.compile("V(\\d+)__[^/]*\\.sql");

    /** A script: its version, its file name and its SQL, placeholders left in. */
    record Script(int version, String name, String sql) {}

    private SchemaScripts() {}

    static boolean isSqlWorld(String world) {
        return FOLDERS.containsKey(world);
    }

    /** The world's scripts, oldest first. */
    static List<Script> of(String world) {
        String folder = FOLDERS.get(world);
        if (folder == null) {
            throw new CliException(ExitCodes.USAGE, "world '" + world + "' keeps no SQL schema");
        }
        URL first = SchemaScripts.class.getClassLoader().getResource(folder + "V1__init.sql");
        if (first == null) {
            throw new CliException(
                    ExitCodes.USAGE, "the " + world + " world is not on the classpath (no " + folder + " found)");
        }
        return names(first, folder).stream()
                .map(name -> new Script(version(name), name, read(folder + name)))
                .sorted(Comparator.comparingInt(Script::version))
                .toList();
    }

    /** The file names beside {@code first}: in a folder of classes, or in the jar that holds it. */
    private static List<String> names(URL first, String folder) {
        try {
            if ("jar".equals(first.getProtocol())) {
                JarURLConnection connection = (JarURLConnection) first.openConnection();
                connection.setUseCaches(false);
                try (JarFile jar = connection.getJarFile()) {
                    return jar.stream()
                            .map(JarEntry::getName)
                            .filter(n -> n.startsWith(folder))
                            .map(n -> n.substring(folder.length()))
                            .filter(n -> SCRIPT.matcher(n).matches())
                            .toList();
                }
            }
            try (Stream<Path> files = Files.list(Path.of(first.toURI()).getParent())) {
                return files.map(p -> p.getFileName().toString())
                        .filter(n -> SCRIPT.matcher(n).matches())
                        .toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + folder + " on the classpath", e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot list " + folder + " on the classpath", e);
        }
    }

    private static int version(String name) {
        Matcher m = SCRIPT.matcher(name);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a migration script: " + name);
        }
        return Integer.parseInt(m.group(1));
    }

    private static String read(String resource) {
        try (InputStream in = SchemaScripts.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }
}
