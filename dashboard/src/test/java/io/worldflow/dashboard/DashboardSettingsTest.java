package io.worldflow.dashboard;

import io.worldflow.spi.WorldConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DashboardSettingsTest {

    @Test
    void aMisspeltDashboardKeyIsNamedWithTheKeyItMostLooksLikeAndTheSettingKeepsItsDefault() {
        DashboardSettings settings;
        List<String> warned;
        try (LogCapture log = new LogCapture(DashboardSettings.class)) {
            settings = DashboardSettings.fromConfig(WorldConfig.of(Map.of(
                    "worldflow.dashboard.prot", "8080",
                    "worldflow.dashboard.enabled", "true",
                    "worldflow.dashboard.host", "0.0.0.0")));
            warned = log.lines;
        }
        assertThat(settings.port()).isEqualTo(7070);
        assertThat(settings.host()).isEqualTo("0.0.0.0");
        assertThat(warned)
                .containsExactly("WARN configuration key worldflow.dashboard.prot changes nothing: no key of"
                        + " worldflow.dashboard.* has that name; did you mean worldflow.dashboard.port?");
    }
}
