package io.worldflow;

import org.junit.jupiter.api.Test;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ErrorInfoTest {

    /** A user exception whose superclass is a JDK type, as a step would throw it. */
    static class InvalidOrderException extends IllegalArgumentException {
        InvalidOrderException(String message) {
            super(message);
        }
    }

    static class PaymentException extends RuntimeException {
        PaymentException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    static class CardDeclinedException extends PaymentException {
        CardDeclinedException(String message) {
            super(message, null);
        }
    }

    @Test
    void ofRecordsTheTypeMessageAndStackTrace() {
        ErrorInfo info = ErrorInfo.of(new IllegalStateException("no stock for sku-1"));

        assertThat(info.type()).isEqualTo("java.lang.IllegalStateException");
        assertThat(info.message()).isEqualTo("no stock for sku-1");
        assertThat(info.stackTrace())
                .startsWith("java.lang.IllegalStateException: no stock for sku-1")
                .contains("ofRecordsTheTypeMessageAndStackTrace");
        assertThat(info.causeTypes()).isEmpty();
        assertThat(info.summary()).isEqualTo("java.lang.IllegalStateException: no stock for sku-1");
    }

    @Test
    void ofRecordsNestedClassNamesInBinaryForm() {
        ErrorInfo info = ErrorInfo.of(new CardDeclinedException("declined"));

        assertThat(info.type()).isEqualTo("io.worldflow.ErrorInfoTest$CardDeclinedException");
    }

    @Test
    void summaryIsTheTypeAloneWithoutAMessage() {
        ErrorInfo info = ErrorInfo.of(new NullPointerException());

        assertThat(info.message()).isNull();
        assertThat(info.summary()).isEqualTo("java.lang.NullPointerException");
    }

    @Test
    void causeTypesListTheChainOutermostFirst() {
        Exception error =
                new PaymentException("charge failed", new UncheckedIOException(new FileNotFoundException("keys.pem")));

        ErrorInfo info = ErrorInfo.of(error);

        assertThat(info.type()).isEqualTo(PaymentException.class.getName());
        assertThat(info.causeTypes()).containsExactly("java.io.UncheckedIOException", "java.io.FileNotFoundException");
        assertThat(info.stackTrace()).contains("Caused by: java.io.FileNotFoundException: keys.pem");
    }

    @Test
    void aCircularCauseChainEndsWithABoundedList() {
        IllegalStateException a = new IllegalStateException("a");
        IllegalArgumentException b = new IllegalArgumentException("b", a);
        a.initCause(b);

        ErrorInfo info = ErrorInfo.of(a);

        assertThat(info.causeTypes()).isNotEmpty().hasSizeLessThanOrEqualTo(16);
        assertThat(info.causeTypes().getFirst()).isEqualTo("java.lang.IllegalArgumentException");
        assertThat(info.stackTrace()).contains("CIRCULAR REFERENCE");
    }

    @Test
    void hugeStackTracesAreTruncated() {
        RuntimeException error = new RuntimeException("deep");
        List<StackTraceElement> frames = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            frames.add(new StackTraceElement("com.acme.Recursive", "descend" + i, "Recursive.java", i));
        }
        error.setStackTrace(frames.toArray(StackTraceElement[]::new));

        ErrorInfo info = ErrorInfo.of(error);

        assertThat(info.stackTrace().length()).isLessThanOrEqualTo(16_000 + 32);
        assertThat(info.stackTrace())
                .startsWith("java.lang.RuntimeException: deep")
                .endsWith("(truncated)")
                .doesNotContain("descend4999");
        assertThat(info.message()).isEqualTo("deep");
    }

    @Test
    void shortStackTracesAreKeptWhole() {
        ErrorInfo info = ErrorInfo.of(new IllegalStateException("short"));

        assertThat(info.stackTrace()).doesNotContain("(truncated)");
    }

    @Test
    void constructorRequiresATypeAndNormalisesNulls() {
        ErrorInfo info = new ErrorInfo("com.acme.Oops", null, null, null);

        assertThat(info.stackTrace()).isEmpty();
        assertThat(info.causeTypes()).isEmpty();
        assertThatThrownBy(() -> new ErrorInfo(null, "m", "", List.of()))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("type");
    }

    @Test
    void causeTypesAreAnImmutableCopy() {
        List<String> causes = new ArrayList<>(List.of("java.io.IOException"));
        ErrorInfo info = new ErrorInfo("java.lang.RuntimeException", "x", "", causes);
        causes.add("java.lang.Error");

        assertThat(info.causeTypes()).containsExactly("java.io.IOException");
        assertThatThrownBy(() -> info.causeTypes().add("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    // ---------------------------------------------------------------- isA

    @Test
    void isAMatchesTheExactTypeByName() {
        ErrorInfo info = ErrorInfo.of(IllegalStateException.class.getName(), "recorded long ago");

        assertThat(info.isA(IllegalStateException.class)).isTrue();
        assertThat(info.isA(IllegalArgumentException.class)).isFalse();
    }

    @Test
    void isAMatchesJdkSuperclasses() {
        ErrorInfo info = ErrorInfo.of(new FileNotFoundException("gone"));

        assertThat(info.isA(IOException.class)).isTrue();
        assertThat(info.isA(Exception.class)).isTrue();
        assertThat(info.isA(Throwable.class)).isTrue();
        assertThat(info.isA(RuntimeException.class)).isFalse();
    }

    @Test
    void isAMatchesUserSuperclasses() {
        ErrorInfo info = ErrorInfo.of(new CardDeclinedException("declined"));

        assertThat(info.isA(CardDeclinedException.class)).isTrue();
        assertThat(info.isA(PaymentException.class)).isTrue();
        assertThat(info.isA(InvalidOrderException.class)).isFalse();
    }

    @Test
    void isAMatchesAJdkSuperclassOfAUserException() {
        ErrorInfo info = ErrorInfo.of(new InvalidOrderException("quantity must be positive"));

        assertThat(info.isA(IllegalArgumentException.class)).isTrue();
        assertThat(info.isA(RuntimeException.class)).isTrue();
        assertThat(info.isA(IllegalStateException.class)).isFalse();
    }

    @Test
    void isALooksAtTheCausesToo() {
        ErrorInfo info = ErrorInfo.of(new PaymentException("charge failed", new InvalidOrderException("bad")));

        assertThat(info.isA(InvalidOrderException.class)).isTrue();
        assertThat(info.isA(IllegalArgumentException.class)).isTrue();
        assertThat(info.isA(IOException.class)).isFalse();
    }

    @Test
    void isAOfAClassThatNoLongerExistsMatchesOnlyByExactName() {
        ErrorInfo info = new ErrorInfo("com.acme.RemovedException", "old", "", List.of("com.acme.AlsoGone"));

        assertThat(info.isA(RuntimeException.class)).isFalse();
        assertThat(info.isA(Throwable.class)).isFalse();
    }
}
