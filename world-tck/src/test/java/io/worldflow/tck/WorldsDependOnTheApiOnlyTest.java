package io.worldflow.tck;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rule of the architecture, checked on this repository's sources: a world's main code depends on
 * {@code worldflow-api} only (the SPI is its whole contract), never on the runtime. A world module is a folder
 * of the reactor whose main resources register a {@code WorldProvider}; what needs the runtime next to a world
 * (the Lambda handler) lives in a module of its own.
 */
class WorldsDependOnTheApiOnlyTest {

    private static final String PROVIDER_FILE = "src/main/resources/META-INF/services/io.worldflow.spi.WorldProvider";
    /** An import of the runtime, or a use of one of its names in code (comments aside). */
    private static final Pattern RUNTIME_USE =
            Pattern.compile("^(?!\\s*(//|\\*|/\\*)).*\\bio\\.worldflow\\.runtime\\b.*", Pattern.MULTILINE);
    /** A dependency element naming the runtime artifact. */
    private static final Pattern DEPENDENCY = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL);

    /** The reactor's root: the tests of this module run in its folder. */
    private static Path root() {
        Path root = Path.of("").toAbsolutePath().getParent();
        assertThat(root.resolve("pom.xml"))
                .as("the reactor's pom next to world-tck")
                .isRegularFile();
        return root;
    }

    private static List<Path> worlds() throws IOException {
        try (Stream<Path> folders = Files.list(root())) {
            return folders.filter(f -> Files.isRegularFile(f.resolve(PROVIDER_FILE)))
                    .sorted()
                    .toList();
        }
    }

    @Test
    void everyWorldOfTheRepositoryIsChecked() throws IOException {
        assertThat(worlds())
                .extracting(f -> f.getFileName().toString())
                .contains("world-local", "world-postgres", "world-aws");
    }

    @Test
    void noMainSourceOfAWorldUsesTheRuntime() throws IOException {
        List<String> uses = new ArrayList<>();
        for (Path world : worlds()) {
            Path sources = world.resolve("src/main/java");
            try (Stream<Path> files = Files.walk(sources)) {
                files.filter(f -> f.toString().endsWith(".java")).sorted().forEach(f -> {
                    Matcher m = RUNTIME_USE.matcher(read(f));
                    while (m.find()) {
                        uses.add(root().relativize(f) + ": " + m.group().strip());
                    }
                });
            }
        }
        assertThat(uses)
                .as("main sources of worlds that use io.worldflow.runtime")
                .isEmpty();
    }

    @Test
    void noWorldDeclaresTheRuntimeOutsideTestScope() throws IOException {
        List<String> declared = new ArrayList<>();
        for (Path world : worlds()) {
            Matcher m = DEPENDENCY.matcher(read(world.resolve("pom.xml")));
            while (m.find()) {
                String dependency = m.group(1);
                if (dependency.contains("<artifactId>worldflow-runtime</artifactId>")
                        && !dependency.contains("<scope>test</scope>")) {
                    declared.add(world.getFileName() + "/pom.xml");
                }
            }
        }
        assertThat(declared)
                .as("worlds whose pom puts worldflow-runtime on the main classpath")
                .isEmpty();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
