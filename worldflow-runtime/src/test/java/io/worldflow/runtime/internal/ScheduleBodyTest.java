package io.worldflow.runtime.internal;

import io.worldflow.Payload;
import io.worldflow.ScheduleSpec;
import io.worldflow.SearchAttributes;
import io.worldflow.SearchKey;
import io.worldflow.WorldflowException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScheduleBodyTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    @Test
    void aSchedulesSearchAttributesAreKeptWithTheirTypes() {
        SearchAttributes attributes = SearchAttributes.of(SearchKey.forString("team"), "billing")
                .with(SearchKey.forLong("tier"), 2L)
                .with(SearchKey.forInstant("since"), T0);
        ScheduleBody body = ScheduleBody.of(
                ScheduleSpec.every("hourly", Duration.ofHours(1), "report", null)
                        .withSearchAttributes(attributes),
                Payload.NULL,
                T0);

        String text = body.encode();

        assertThat(text).contains("\"team\":\"s:billing\"", "\"tier\":\"l:2\"");
        assertThat(ScheduleBody.decode("hourly", text).spec().searchAttributes())
                .isEqualTo(attributes);
    }

    @Test
    void aBodyWrittenBeforeSchedulesHadAttributesReadsWithNone() {
        String text = ScheduleBody.of(
                        ScheduleSpec.every("hourly", Duration.ofHours(1), "report", null), Payload.NULL, T0)
                .encode()
                .replace(",\"searchAttributes\":{}", "");
        assertThat(text).doesNotContain("searchAttributes");

        assertThat(ScheduleBody.decode("hourly", text).spec().searchAttributes().isEmpty())
                .isTrue();
    }

    @Test
    void aStoredAttributeThatIsNoneIsAClearError() {
        String text = ScheduleBody.of(
                        ScheduleSpec.every("hourly", Duration.ofHours(1), "report", null)
                                .withSearchAttributes(SearchAttributes.of(SearchKey.forLong("tier"), 2L)),
                        Payload.NULL,
                        T0)
                .encode()
                .replace("l:2", "l:two");

        assertThatThrownBy(() -> ScheduleBody.decode("hourly", text))
                .isInstanceOf(WorldflowException.class)
                .hasMessageContaining("schedule 'hourly'")
                .hasMessageContaining("l:two");
    }
}
