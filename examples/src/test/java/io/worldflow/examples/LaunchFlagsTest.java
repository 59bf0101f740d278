package io.worldflow.examples;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JVM flags are kept in two places that must agree: the parent pom's {@code worldflow.jvm.flags}, which the
 * build gives this test JVM and every JVM a test starts, and {@code .mvn/find-jdk.sh}, from which {@code ./mvnw}
 * gives them to Maven's own JVM, where {@code exec:java} runs the demos. The demo tests check the first; this
 * checks that the second says the same for this JDK.
 */
class LaunchFlagsTest {

    @Test
    void mavensJvmGetsTheFlagsTheBuildGivesTheJvmsItStarts() throws Exception {
        int major = Runtime.version().feature();
        Process sh = new ProcessBuilder("sh", "-c", ". ./.mvn/find-jdk.sh && worldflow_jvm_flags " + major)
                .directory(Path.of("..").toFile())
                .redirectErrorStream(true)
                .start();
        String printed = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(sh.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(sh.exitValue()).as(printed).isZero();

        List<String> wrapperFlags = Arrays.asList(printed.split("\\s+"));
        assertThat(ChildJvm.accessFlags())
                .as("the pom's flags, seen by this JVM")
                .contains("--enable-native-access=ALL-UNNAMED");
        assertThat(wrapperFlags)
                .as("the flags ./mvnw gives Maven's JVM on JDK " + major)
                .containsExactlyElementsOf(ChildJvm.accessFlags());
    }
}
