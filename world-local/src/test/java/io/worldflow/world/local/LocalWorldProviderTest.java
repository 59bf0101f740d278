package io.worldflow.world.local;

import io.worldflow.ConfigurationException;
import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LocalWorldProviderTest {

    @Test
    void serviceLoaderFindsTheProviderByName() {
        assertThat(ServiceLoader.load(WorldProvider.class).stream().map(ServiceLoader.Provider::get))
                .anySatisfy(p -> {
                    assertThat(p).isInstanceOf(LocalWorldProvider.class);
                    assertThat(p.name()).isEqualTo("local");
                });
    }

    @Test
    void configKeysDescribeEveryKeyRead() {
        assertThat(new LocalWorldProvider().configKeys())
                .containsOnlyKeys("worldflow.local.path", "worldflow.local.synchronous", "worldflow.local.busy-timeout")
                .allSatisfy((key, description) -> assertThat(description).isNotBlank());
    }

    @Test
    void defaultsAreAFileInTheWorkingDirectoryFullSyncAndFiveSeconds() {
        LocalSettings s = LocalSettings.from(WorldConfig.of(Map.of()));
        assertThat(s.path()).isEqualTo(Path.of("worldflow.db").toAbsolutePath().normalize());
        assertThat(s.lockFile().getFileName()).hasToString("worldflow.db.lock");
        assertThat(s.synchronous()).isEqualTo(LocalSettings.Synchronous.FULL);
        assertThat(s.busyTimeout()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void valuesAreReadCaseInsensitivelyAndInShortDurations() {
        LocalSettings s = LocalSettings.from(WorldConfig.of(Map.of(
                LocalWorldProvider.SYNCHRONOUS, "normal",
                LocalWorldProvider.BUSY_TIMEOUT, "250ms")));
        assertThat(s.synchronous()).isEqualTo(LocalSettings.Synchronous.NORMAL);
        assertThat(s.busyTimeoutMillis()).isEqualTo(250);
    }

    @Test
    void badSynchronousValueNamesTheKey() {
        assertThatThrownBy(
                        () -> LocalSettings.from(WorldConfig.of(Map.of(LocalWorldProvider.SYNCHRONOUS, "SOMETIMES"))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("worldflow.local.synchronous")
                .hasMessageContaining("SOMETIMES");
    }

    @Test
    void badBusyTimeoutNamesTheKey() {
        assertThatThrownBy(() -> LocalSettings.from(WorldConfig.of(Map.of(LocalWorldProvider.BUSY_TIMEOUT, "soon"))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("worldflow.local.busy-timeout");
        assertThatThrownBy(() -> LocalSettings.from(WorldConfig.of(Map.of(LocalWorldProvider.BUSY_TIMEOUT, "PT-5S"))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("worldflow.local.busy-timeout");
    }

    @Test
    void badPathNamesTheKey() {
        assertThatThrownBy(() -> LocalSettings.from(WorldConfig.of(Map.of(LocalWorldProvider.PATH, "bad\0name.db"))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("worldflow.local.path");
    }

    @Test
    void badConfigurationFailsCreateBeforeTouchingTheDisk() {
        WorldConfig config = WorldConfig.of(Map.of(LocalWorldProvider.SYNCHRONOUS, "OFF"));
        assertThatThrownBy(() -> new LocalWorldProvider()
                        .create(new io.worldflow.spi.WorldContext(
                                config,
                                io.worldflow.runtime.ManualClock.start(),
                                new io.worldflow.runtime.JsonCodec().eventCodec())))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("worldflow.local.synchronous");
    }
}
