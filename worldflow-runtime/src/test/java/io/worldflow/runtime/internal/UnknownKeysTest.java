package io.worldflow.runtime.internal;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.worldflow.ConfigurationException;
import io.worldflow.runtime.Worldflow;
import io.worldflow.runtime.WorldflowConfig;
import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A key nothing reads is named in a warning, with the key it most looks like; every key something reads is not. */
class UnknownKeysTest {

    static final List<WorldProvider> WORLDS = List.of(new WorldLoaderTest.FakeProvider());

    @Test
    void aMisspeltKeyOfTheRuntimeIsNamedWithTheKeyItMostLooksLike() {
        assertThat(UnknownKeys.check(List.of("worldflow.worker.concurrancy"), List.of(), WORLDS))
                .containsExactly("configuration key worldflow.worker.concurrancy changes nothing: neither Worldflow"
                        + " nor a world on the class path reads it; did you mean worldflow.worker.concurrency?");
        assertThat(UnknownKeys.check(List.of("worldflow.retension"), List.of(), WORLDS))
                .containsExactly("configuration key worldflow.retension changes nothing: neither Worldflow nor a"
                        + " world on the class path reads it; did you mean worldflow.retention?");
    }

    @Test
    void aWorldsMisspeltKeyNamesTheWorldAndItsKey() {
        assertThat(UnknownKeys.check(List.of("worldflow.fake.dri"), List.of(), WORLDS))
                .containsExactly("configuration key worldflow.fake.dri changes nothing: the fake world does not read"
                        + " it; did you mean worldflow.fake.dir?");
    }

    @Test
    void aKeyLikeNoneIsNamedWithoutAGuess() {
        assertThat(UnknownKeys.check(List.of("worldflow.worker.colour"), List.of(), WORLDS))
                .containsExactly("configuration key worldflow.worker.colour changes nothing: neither Worldflow nor a"
                        + " world on the class path reads it");
    }

    @Test
    void everyKeySomethingReadsPassesWithoutAWord() {
        List<String> keys = new java.util.ArrayList<>(UnknownKeys.RUNTIME);
        keys.addAll(List.of(
                "worldflow.fake.dir",
                "worldflow.app.region",
                "worldflow.dashboard.port",
                "worldflow.dashboard.anything",
                "worldflow.test.chromium"));
        assertThat(UnknownKeys.check(keys, List.of("worldflow.app.region"), WORLDS))
                .isEmpty();
    }

    @Test
    void aModuleChecksItsOwnNamespace() {
        WorldConfig config = WorldConfig.of(Map.of(
                "worldflow.dashboard.prot", "8080",
                "worldflow.dashboard.host", "0.0.0.0",
                "worldflow.worker.lease", "5s"));
        assertThat(WorldflowConfig.unknownKeys(
                        config,
                        "worldflow.dashboard.",
                        List.of("worldflow.dashboard.port", "worldflow.dashboard.host")))
                .containsExactly("configuration key worldflow.dashboard.prot changes nothing: no key of"
                        + " worldflow.dashboard.* has that name; did you mean worldflow.dashboard.port?");
    }

    @Test
    void buildingWarnsOfAMisspeltKeyAndNotOfADeclaredOne() {
        List<String> warned = new CopyOnWriteArrayList<>();
        AppenderBase<ILoggingEvent> capture = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                warned.add(event.getLevel() + " " + event.getFormattedMessage());
            }
        };
        capture.start();
        Logger logger = (Logger) LoggerFactory.getLogger(UnknownKeys.class);
        logger.addAppender(capture);
        try {
            // the check comes before the world is opened: no world is on this module's class path
            assertThatThrownBy(() -> Worldflow.builder()
                            .property("worldflow.worker.shutdown-grase", "5s")
                            .property("worldflow.app.region", "north")
                            .knownKey("worldflow.app.region")
                            .build())
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageStartingWith("unknown world 'local'");
        } finally {
            logger.detachAppender(capture);
        }
        assertThat(warned)
                .containsExactly("WARN configuration key worldflow.worker.shutdown-grase changes nothing: neither"
                        + " Worldflow nor a world on the class path reads it; did you mean"
                        + " worldflow.worker.shutdown-grace?");
    }
}
