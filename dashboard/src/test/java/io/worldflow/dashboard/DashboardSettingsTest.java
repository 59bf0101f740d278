package io.worldflow.dashboard;

import io.worldflow.ConfigurationException;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.WorldConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    @Test
    void aDashboardThatCannotListenSaysWhyNotThatThePortIsTaken(@TempDir Path dir) throws Exception {
        try (Worldflow wf = Worldflow.builder()
                        .property("worldflow.local.path", dir.resolve("d.db").toString())
                        .build();
                ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> Dashboard.start(wf, settings("127.0.0.1", taken.getLocalPort())))
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("cannot listen on 127.0.0.1:" + taken.getLocalPort())
                    .hasMessageContaining("in use");
            // an address of a documentation network, which no machine has: not a port in use
            assertThatThrownBy(() -> Dashboard.start(wf, settings("192.0.2.1", 0)))
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining(
                            "cannot listen on 192.0.2.1:0 (worldflow.dashboard.host, worldflow.dashboard.port)")
                    .hasMessageNotContaining("in use");
            try (Dashboard working = Dashboard.start(wf, settings("127.0.0.1", 0))) {
                assertThat(working.port()).as("nothing was left half started").isPositive();
            }
        }
    }

    private static DashboardSettings settings(String host, int port) {
        return new DashboardSettings(
                host, port, "a-token-of-enough-length-0123456789", false, false, 64 * 1024, List.of(), false);
    }
}
