package io.worldflow.examples;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every Java snippet in the README is marked {@code <!-- snippet:NAME -->} and must equal, line for line,
 * the region {@code // tag::NAME[]} … {@code // end::NAME[]} of a source file in this module, which CI compiles.
 */
class ReadmeSnippetsTest {

    private static final Pattern SNIPPET =
            Pattern.compile("<!-- snippet:([\\w-]+) -->\\s*```java\\n(.*?)```", Pattern.DOTALL);

    @Test
    void everyReadmeSnippetIsCopiedFromCompiledCode() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        Map<String, String> snippets = new LinkedHashMap<>();
        Matcher m = SNIPPET.matcher(readme);
        while (m.find()) {
            snippets.put(m.group(1), m.group(2));
        }
        assertThat(snippets).as("README snippets").containsKeys("quickstart", "workflow", "annotated", "testing");
        assertThat(readme.split("```java", -1).length - 1)
                .as("every java block in the README is a marked snippet")
                .isEqualTo(snippets.size());
        // this module's sources, and the Spring Boot sample's
        Map<String, String> regions = regions(Path.of("src"));
        regions.putAll(regions(Path.of("..", "examples-spring-boot", "src")));
        snippets.forEach((name, text) ->
                assertThat(text).as("README snippet '" + name + "'").isEqualTo(regions.get(name)));
    }

    @Test
    void theReadmeStartsWithTheDemoAndTestCommands() throws IOException {
        List<String> head = Files.readAllLines(Path.of("..", "README.md")).subList(0, 8);
        assertThat(String.join("\n", head))
                .contains("./mvnw -q -pl examples -am package -DskipTests -Pdemo")
                .contains("./mvnw verify");
    }

    private static Map<String, String> regions(Path root) {
        Map<String, String> out = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                List<String> lines = Files.readAllLines(f);
                String name = null;
                List<String> body = new ArrayList<>();
                for (String line : lines) {
                    String t = line.strip();
                    if (t.startsWith("// tag::") && t.endsWith("[]")) {
                        name = t.substring("// tag::".length(), t.length() - 2);
                        body.clear();
                    } else if (name != null && t.equals("// end::" + name + "[]")) {
                        out.put(name, unindent(body));
                        name = null;
                    } else if (name != null) {
                        body.add(line);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Removes the indentation common to the region's lines: README snippets start at column 0. */
    private static String unindent(List<String> body) {
        int min = Integer.MAX_VALUE;
        for (String l : body) {
            if (!l.isBlank()) {
                min = Math.min(min, l.length() - l.stripLeading().length());
            }
        }
        int cut = min == Integer.MAX_VALUE ? 0 : min;
        StringBuilder sb = new StringBuilder();
        for (String l : body) {
            sb.append(l.length() >= cut ? l.substring(cut) : l.strip()).append('\n');
        }
        return sb.toString();
    }
}
