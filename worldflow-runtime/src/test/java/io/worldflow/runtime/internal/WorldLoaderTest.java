package io.worldflow.runtime.internal;

import io.worldflow.ConfigurationException;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.ManualClock;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldContext;
import io.worldflow.spi.WorldProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorldLoaderTest {

    private final ManualClock clock = ManualClock.start();
    private final JsonCodec codec = new JsonCodec();

    /** A world provider found only through the class loader {@link #withProvider} installs. */
    public static final class FakeProvider implements WorldProvider {
        static volatile WorldContext lastContext;

        @Override
        public String name() {
            return "fake";
        }

        @Override
        public Map<String, String> configKeys() {
            return Map.of("worldflow.fake.dir", "where fake runs live");
        }

        @Override
        public World create(WorldContext context) {
            lastContext = context;
            return (World) Proxy.newProxyInstance(
                    getClass().getClassLoader(),
                    new Class<?>[] {World.class},
                    (proxy, method, args) -> method.getName().equals("name") ? "fake" : null);
        }
    }

    @TempDir
    Path dir;

    /** Runs {@code body} with a context class loader whose service file lists {@link FakeProvider}. */
    private <T> T withProvider(Callable<T> body) throws Exception {
        Path services = dir.resolve("META-INF/services");
        Files.createDirectories(services);
        Files.writeString(services.resolve(WorldProvider.class.getName()), FakeProvider.class.getName() + "\n");
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader loader =
                new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            thread.setContextClassLoader(loader);
            return body.call();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    @Test
    void noWorldIsOnThisModulesClasspath() {
        assertThat(WorldLoader.providers()).isEmpty();
        assertThat(WorldLoader.knownKeys()).isEmpty();
    }

    @Test
    void anUnknownWorldFailsSayingNoneWereFound() {
        WorldConfig config = WorldConfig.of(Map.of("worldflow.world", "mars"));

        assertThatThrownBy(() -> WorldLoader.open(config, clock, codec.eventCodec()))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("unknown world 'mars'")
                .hasMessageContaining("worldflow.world")
                .hasMessageContaining("none (add world-local, world-postgres or world-aws)");
    }

    @Test
    void withoutAConfiguredWorldTheLocalOneIsAskedFor() {
        assertThatThrownBy(() -> WorldLoader.open(WorldConfig.of(Map.of()), clock, codec.eventCodec()))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("unknown world 'local'");
    }

    @Test
    void anUnknownWorldFailsListingTheWorldsFound() throws Exception {
        WorldConfig config = WorldConfig.of(Map.of("worldflow.world", "mars"));

        Throwable thrown = withProvider(() -> {
            try {
                WorldLoader.open(config, clock, codec.eventCodec());
                return null;
            } catch (ConfigurationException e) {
                return e;
            }
        });

        assertThat(thrown)
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("unknown world 'mars'")
                .hasMessageContaining("[fake]");
    }

    @Test
    void theNamedWorldIsCreatedWithTheConfigClockAndCodec() throws Exception {
        WorldConfig config = WorldConfig.of(Map.of("worldflow.world", "fake", "worldflow.fake.dir", "/tmp/x"));

        World world = withProvider(() -> WorldLoader.open(config, clock, codec.eventCodec()));

        assertThat(world.name()).isEqualTo("fake");
        assertThat(FakeProvider.lastContext.config()).isSameAs(config);
        assertThat(FakeProvider.lastContext.clock()).isSameAs(clock);
        assertThat(FakeProvider.lastContext.codec()).isSameAs(codec.eventCodec());
    }

    @Test
    void theKeysOfTheWorldsFoundAreKnown() throws Exception {
        assertThat(withProvider(WorldLoader::knownKeys)).containsExactly("worldflow.fake.dir");
    }

    @org.junit.jupiter.api.Test
    void credentialsInsideAUrlAreMaskedInTheLog() {
        org.assertj.core.api.Assertions.assertThat(
                        WorldLoader.maskUrlSecrets("jdbc:postgresql://db:5432/app?user=wf&password=hunter2&ssl=true"))
                .isEqualTo("jdbc:postgresql://db:5432/app?user=wf&password=****&ssl=true");
        org.assertj.core.api.Assertions.assertThat(WorldLoader.maskUrlSecrets("postgresql://wf:hunter2@db/app"))
                .isEqualTo("postgresql://wf:****@db/app");
        org.assertj.core.api.Assertions.assertThat(WorldLoader.maskUrlSecrets("target/worldflow.db"))
                .isEqualTo("target/worldflow.db");
    }
}
