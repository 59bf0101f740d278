package io.worldflow.dashboard;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.worldflow.spi.WorldConfig;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

class DashboardSettingsTest {

    @Test
    void aMisspeltDashboardKeyIsNamedWithTheKeyItMostLooksLikeAndTheSettingKeepsItsDefault() {
        List<String> warned = new CopyOnWriteArrayList<>();
        AppenderBase<ILoggingEvent> capture = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                warned.add(event.getLevel() + " " + event.getFormattedMessage());
            }
        };
        capture.start();
        Logger logger = (Logger) LoggerFactory.getLogger(DashboardSettings.class);
        logger.addAppender(capture);
        DashboardSettings settings;
        try {
            settings = DashboardSettings.fromConfig(WorldConfig.of(Map.of(
                    "worldflow.dashboard.prot", "8080",
                    "worldflow.dashboard.enabled", "true",
                    "worldflow.dashboard.host", "0.0.0.0")));
        } finally {
            logger.detachAppender(capture);
        }
        assertThat(settings.port()).isEqualTo(7070);
        assertThat(settings.host()).isEqualTo("0.0.0.0");
        assertThat(warned)
                .containsExactly("WARN configuration key worldflow.dashboard.prot changes nothing: no key of"
                        + " worldflow.dashboard.* has that name; did you mean worldflow.dashboard.port?");
    }
}
