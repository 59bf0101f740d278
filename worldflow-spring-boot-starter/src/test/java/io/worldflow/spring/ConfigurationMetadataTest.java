package io.worldflow.spring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.worldflow.dashboard.DashboardSettings;
import io.worldflow.runtime.WorldflowConfig;
import io.worldflow.runtime.internal.UnknownKeys;
import io.worldflow.spi.WorldProvider;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter's {@code META-INF/spring-configuration-metadata.json}, which IDEs read to complete and check
 * {@code worldflow.*} keys in {@code application.properties}: it names exactly the keys Worldflow reads, each
 * described, with the defaults the code has.
 */
class ConfigurationMetadataTest {

    private static final Set<String> TYPES =
            Set.of("java.lang.String", "java.lang.Boolean", "java.lang.Integer", "java.time.Duration");

    private static JsonNode metadata() throws IOException {
        try (InputStream in =
                ConfigurationMetadataTest.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("the starter's configuration metadata").isNotNull();
            return new ObjectMapper().readTree(in);
        }
    }

    private static Map<String, JsonNode> properties() throws IOException {
        Map<String, JsonNode> out = new HashMap<>();
        for (JsonNode p : metadata().get("properties")) {
            assertThat(out.put(p.get("name").asText(), p))
                    .as("%s listed once", p.get("name"))
                    .isNull();
        }
        return out;
    }

    /** Every key the runtime, the worlds, the dashboard and the starter read, and the health indicator's switch. */
    private static Set<String> readKeys() {
        Set<String> keys = new TreeSet<>(UnknownKeys.RUNTIME);
        List<String> worlds = new java.util.ArrayList<>();
        for (WorldProvider p : ServiceLoader.load(WorldProvider.class)) {
            worlds.add(p.name());
            keys.addAll(p.configKeys().keySet());
        }
        assertThat(worlds).as("worlds on the test class path").contains("local", "postgres", "aws");
        keys.addAll(DashboardSettings.KEYS);
        keys.add(WorldflowAutoConfiguration.WORKER_ENABLED);
        keys.add(WorldflowAutoConfiguration.SIGNAL_ENDPOINT_ENABLED);
        keys.add(WorldflowAutoConfiguration.HEALTH_ENABLED);
        return keys;
    }

    @Test
    void itListsExactlyTheKeysWorldflowReads() throws IOException {
        assertThat(new TreeSet<>(properties().keySet())).isEqualTo(readKeys());
    }

    @Test
    void eachKeyIsDescribedAndTypedAndItsDefaultIsTheCodes() throws IOException {
        Set<String> checkedDefaults = new HashSet<>();
        for (Map.Entry<String, JsonNode> e : properties().entrySet()) {
            JsonNode p = e.getValue();
            assertThat(p.path("description").asText())
                    .as(e.getKey())
                    .isNotBlank()
                    .endsWith(".");
            assertThat(TYPES)
                    .as("type of %s", e.getKey())
                    .contains(p.path("type").asText());
            String codeDefault = WorldflowConfig.DEFAULTS.get(e.getKey());
            if (codeDefault != null) {
                assertThat(p.path("defaultValue").asText())
                        .as("default of %s", e.getKey())
                        .isEqualTo(codeDefault);
                checkedDefaults.add(e.getKey());
            }
        }
        assertThat(checkedDefaults).containsExactlyInAnyOrderElementsOf(WorldflowConfig.DEFAULTS.keySet());
        assertThat(metadata().get("hints"))
                .anySatisfy(h -> assertThat(h.get("name").asText()).isEqualTo("worldflow.world"));
    }
}
