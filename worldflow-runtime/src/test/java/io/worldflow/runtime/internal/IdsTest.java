package io.worldflow.runtime.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IdsTest {

    @Test
    void theFirstOccurrenceIsTheBareNameAndLaterOnesCountWithATilde() {
        assertThat(Ids.child("", "charge", 1)).isEqualTo("charge");
        assertThat(Ids.child("", "charge", 2)).isEqualTo("charge~2");
        assertThat(Ids.child("", "fetch", 7)).isEqualTo("fetch~7");
    }

    @Test
    void childrenOfABranchArePrefixedWithItsPath() {
        String branch = Ids.branch("labels", 3);

        assertThat(branch).isEqualTo("labels/3");
        assertThat(Ids.child(branch, "label", 1)).isEqualTo("labels/3/label");
        assertThat(Ids.child(Ids.branch("loop~2", 0), "fetch", 4)).isEqualTo("loop~2/0/fetch~4");
    }

    @ParameterizedTest
    @CsvSource({
        "charge, '', charge",
        "charge~2, '', charge",
        "labels/3/label, labels/3, label",
        "labels/3/label~5, labels/3, label",
        "outer~2/1/inner/0/step~3, outer~2/1/inner/0, step"
    })
    void scopeAndNameAreReadBackFromAnId(String id, String scope, String name) {
        assertThat(Ids.scopeOf(id)).isEqualTo(scope);
        assertThat(Ids.nameOf(id)).isEqualTo(name);
    }

    @Test
    void childScopeAndNameAreInverses() {
        for (String scope : new String[] {"", "p/0", "p/0/q~2/11"}) {
            for (int occurrence = 1; occurrence <= 3; occurrence++) {
                String id = Ids.child(scope, "send-email", occurrence);
                assertThat(Ids.scopeOf(id)).isEqualTo(scope);
                assertThat(Ids.nameOf(id)).isEqualTo("send-email");
            }
        }
    }

    @Test
    void versionMarkersAreRecognisedByTheirPrefix() {
        assertThat(Ids.isVersionMarker(Ids.VERSION_PREFIX + "fix-1")).isTrue();
        assertThat(Ids.isVersionMarker("version")).isFalse();
        assertThat(Ids.isVersionMarker("p/0/@version:x")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"charge", "send email", "charge-card.v2", "é", "x:y#z"})
    void validNamesAreReturnedUnchanged(String name) {
        assertThat(Ids.checkName("step", name)).isSameAs(name);
    }

    @Test
    void aHundredCharactersIsTheLongestName() {
        assertThat(Ids.checkName("step", "n".repeat(100))).hasSize(100);
        assertThatThrownBy(() -> Ids.checkName("step", "n".repeat(101)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("step name")
                .hasMessageContaining("1..100");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a/b", "a~b", "@version", "tab\there", "nul\u0000"})
    void reservedAndControlCharactersAreRejected(String name) {
        assertThatThrownBy(() -> Ids.checkName("timer", name))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timer name")
                .hasMessageContaining("'/', '~', '@'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\t"})
    void blankNamesAreRejected(String name) {
        assertThatThrownBy(() -> Ids.checkName("signal", name))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("signal name")
                .hasMessageContaining("non-blank");
    }

    @Test
    void aNullNameIsRejectedClearly() {
        assertThatThrownBy(() -> Ids.checkName("step", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was null");
    }
}
