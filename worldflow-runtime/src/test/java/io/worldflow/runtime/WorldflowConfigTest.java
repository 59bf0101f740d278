package io.worldflow.runtime;

import io.worldflow.ConfigurationException;
import io.worldflow.spi.WorldConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorldflowConfigTest {

    private static final String BUSY_TIMEOUT = "worldflow.local.busy-timeout";

    @TempDir
    Path dir;

    /** A class loader that sees only a {@code worldflow.properties} with these lines (and the JDK). */
    private ClassLoader classpathWith(String... lines) throws IOException {
        Files.writeString(dir.resolve(WorldflowConfig.FILE), String.join("\n", lines), StandardCharsets.ISO_8859_1);
        return new URLClassLoader(new URL[] {dir.toUri().toURL()}, null);
    }

    /** A class loader without any {@code worldflow.properties}. */
    private ClassLoader emptyClasspath() throws IOException {
        return new URLClassLoader(new URL[] {dir.toUri().toURL()}, null);
    }

    private static Properties system(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    @Test
    void withNoSourcesTheDefaultsApply() throws IOException {
        WorldConfig c = WorldflowConfig.load(Map.of(), List.of(), Map.of(), system(), emptyClasspath());

        assertThat(c.asMap()).isEqualTo(WorldflowConfig.DEFAULTS);
        assertThat(c.get(WorldflowConfig.WORLD)).contains("local");
        assertThat(c.getDuration(WorkerOptions.LEASE, null)).hasSeconds(30);
    }

    @Test
    void eachSourceOverridesTheOnesBelowIt() throws IOException {
        String key = "worldflow.local.path";
        ClassLoader file = classpathWith(
                key + "=from-file", "worldflow.a=file", "worldflow.b=file", "worldflow.c=file", "worldflow.d=file");
        Map<String, String> builder = Map.of(
                key, "from-builder", "worldflow.b", "builder", "worldflow.c", "builder", "worldflow.d", "builder");
        Map<String, String> env =
                Map.of("WORLDFLOW_LOCAL_PATH", "from-env", "WORLDFLOW_C", "env", "WORLDFLOW_D", "env");
        Properties sys = system(key, "from-system", "worldflow.d", "system");

        WorldConfig c = WorldflowConfig.load(builder, List.of(key), env, sys, file);

        assertThat(c.get(key)).contains("from-system");
        assertThat(c.get("worldflow.a")).contains("file");
        assertThat(c.get("worldflow.b")).contains("builder");
        assertThat(c.get("worldflow.c")).contains("env");
        assertThat(c.get("worldflow.d")).contains("system");
    }

    @Test
    void theFileOverridesTheDefaults() throws IOException {
        ClassLoader file = classpathWith("worldflow.world=postgres", "worldflow.worker.concurrency = 8");

        WorldConfig c = WorldflowConfig.load(Map.of(), List.of(), Map.of(), system(), file);

        assertThat(c.get(WorldflowConfig.WORLD)).contains("postgres");
        assertThat(c.getInt(WorkerOptions.CONCURRENCY, 0)).isEqualTo(8);
        assertThat(c.get(WorkerOptions.QUEUES)).contains("default");
    }

    @Test
    void theBuilderOverridesTheFile() throws IOException {
        ClassLoader file = classpathWith("worldflow.world=postgres");

        WorldConfig c = WorldflowConfig.load(Map.of(WorldflowConfig.WORLD, "aws"), List.of(), Map.of(), system(), file);

        assertThat(c.get(WorldflowConfig.WORLD)).contains("aws");
    }

    @Test
    void theEnvironmentOverridesTheBuilder() throws IOException {
        WorldConfig c = WorldflowConfig.load(
                Map.of(WorldflowConfig.WORLD, "aws"),
                List.of(),
                Map.of("WORLDFLOW_WORLD", "postgres"),
                system(),
                emptyClasspath());

        assertThat(c.get(WorldflowConfig.WORLD)).contains("postgres");
    }

    @Test
    void systemPropertiesOverrideTheEnvironment() throws IOException {
        WorldConfig c = WorldflowConfig.load(
                Map.of(),
                List.of(),
                Map.of("WORLDFLOW_WORLD", "postgres"),
                system(WorldflowConfig.WORLD, "local"),
                emptyClasspath());

        assertThat(c.get(WorldflowConfig.WORLD)).contains("local");
    }

    @Test
    void onlyWorldflowKeysAreReadFromTheFileAndSystemProperties() throws IOException {
        ClassLoader file = classpathWith("other.key=1", "worldflow.x=2");

        WorldConfig c = WorldflowConfig.load(
                Map.of(), List.of(), Map.of(), system("java.foo", "bar", "worldflowish", "no"), file);

        assertThat(c.asMap())
                .containsEntry("worldflow.x", "2")
                .doesNotContainKeys("other.key", "java.foo", "worldflowish");
    }

    @Test
    void dashedKeysAreFoundInTheEnvironmentWhenKnown() throws IOException {
        assertThat(WorldflowConfig.envName(BUSY_TIMEOUT)).isEqualTo("WORLDFLOW_LOCAL_BUSY_TIMEOUT");

        WorldConfig c = WorldflowConfig.load(
                Map.of(),
                List.of(BUSY_TIMEOUT),
                Map.of("WORLDFLOW_LOCAL_BUSY_TIMEOUT", "5s"),
                system(),
                emptyClasspath());

        assertThat(c.asMap()).containsEntry(BUSY_TIMEOUT, "5s").doesNotContainKey("worldflow.local.busy.timeout");
    }

    @Test
    void theRuntimesOwnDashedKeysAreAlwaysKnown() throws IOException {
        WorldConfig c = WorldflowConfig.load(
                Map.of(),
                List.of(),
                Map.of("WORLDFLOW_WORKER_POLL_INTERVAL", "250ms", "WORLDFLOW_WORKER_SHUTDOWN_GRACE", "1m"),
                system(),
                emptyClasspath());

        assertThat(c.asMap())
                .containsEntry(WorkerOptions.POLL_INTERVAL, "250ms")
                .containsEntry(WorkerOptions.SHUTDOWN_GRACE, "1m");
    }

    @Test
    void unknownEnvironmentNamesMapUnderscoresToDots() {
        Map<String, String> found =
                WorldflowConfig.fromEnvironment(Map.of("WORLDFLOW_POSTGRES_URL", "jdbc:x"), List.of());

        assertThat(found).containsExactly(Map.entry("worldflow.postgres.url", "jdbc:x"));
    }

    @Test
    void testVariablesAndOtherVariablesAreIgnored() {
        Map<String, String> found = WorldflowConfig.fromEnvironment(
                Map.of(
                        "WORLDFLOW_TEST_POSTGRES_URL", "jdbc:test",
                        "PATH", "/usr/bin",
                        "WORLDFLOW", "x",
                        "worldflow_world", "lower",
                        "WORLDFLOW_WORLD", "aws"),
                List.of());

        assertThat(found).containsExactly(Map.entry(WorldflowConfig.WORLD, "aws"));
    }

    @Test
    void builderKeysOutsideTheWorldflowNamespaceAreRejectedNamingThem() throws IOException {
        ClassLoader cl = emptyClasspath();

        assertThatThrownBy(
                        () -> WorldflowConfig.load(Map.of("local.path", "/tmp/x"), List.of(), Map.of(), system(), cl))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'local.path'")
                .hasMessageContaining("worldflow.");
    }

    @Test
    void aMalformedPropertiesFileIsAConfigurationExceptionNamingTheFile() throws IOException {
        ClassLoader file = classpathWith("worldflow.world=\\uZZZZ");

        assertThatThrownBy(() -> WorldflowConfig.load(Map.of(), List.of(), Map.of(), system(), file))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(WorldflowConfig.FILE);
    }

    @Test
    void withoutAClassLoaderTheRuntimesOwnIsUsed() {
        WorldConfig c = WorldflowConfig.load(Map.of(), List.of(), Map.of(), system(), null);

        assertThat(c.get(WorldflowConfig.WORLD)).isPresent();
    }

    @Test
    void defaultsAreValidWorkerOptions() {
        WorkerOptions o = WorkerOptions.fromConfig(WorldConfig.of(WorldflowConfig.DEFAULTS));

        assertThat(o.concurrency()).isEqualTo(100);
    }
}
