package io.worldflow.dashboard.internal;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The UI's files are named in {@link WebFiles#NAMES}, since a folder in a jar cannot be listed: the two must agree. */
class WebFilesTest {

    @Test
    void everyFileOfTheWebFolderIsServedAndNothingElse() throws IOException {
        Path folder = Path.of("src/main/resources" + WebFiles.FOLDER);
        try (Stream<Path> files = Files.list(folder)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("the files of %s", folder)
                    .containsExactlyInAnyOrderElementsOf(WebFiles.NAMES);
        }
    }

    @Test
    void eachKindOfFileHasItsContentTypeAndAnUnknownKindIsRefused() {
        assertThat(WebFiles.contentType("run.html")).isEqualTo("text/html; charset=utf-8");
        assertThat(WebFiles.contentType("app.css")).isEqualTo("text/css; charset=utf-8");
        assertThat(WebFiles.contentType("run.js")).isEqualTo("text/javascript; charset=utf-8");
        assertThatThrownBy(() -> WebFiles.contentType("logo.svg"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no content type known for logo.svg");
    }
}
