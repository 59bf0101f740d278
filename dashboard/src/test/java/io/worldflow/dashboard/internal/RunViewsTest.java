package io.worldflow.dashboard.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which recorded trace contexts name a trace the run page can show, by the W3C traceparent's rules. */
class RunViewsTest {

    static final String ID = "4bf92f3577b34da6a3ce929d0e0e4736";

    @Test
    void theTraceIdIsTheSecondFieldOfAWellFormedTraceparent() {
        assertThat(RunViews.traceId("00-" + ID + "-00f067aa0ba902b7-01")).isEqualTo(ID);
        assertThat(RunViews.traceId("00-" + ID + "-00f067aa0ba902b7-00")).isEqualTo(ID);
        // a later version keeps the first four fields and may add more
        assertThat(RunViews.traceId("01-" + ID + "-00f067aa0ba902b7-01-extra")).isEqualTo(ID);
    }

    @Test
    void aMalformedOrEmptyTraceparentNamesNoTrace() {
        assertThat(RunViews.traceId(null)).isNull();
        assertThat(RunViews.traceId("")).isNull();
        assertThat(RunViews.traceId("not a traceparent")).isNull();
        assertThat(RunViews.traceId("00-" + "0".repeat(32) + "-00f067aa0ba902b7-01"))
                .isNull();
        assertThat(RunViews.traceId("00-" + ID.toUpperCase() + "-00f067aa0ba902b7-01"))
                .isNull();
        assertThat(RunViews.traceId("00-" + ID.substring(1) + "-00f067aa0ba902b7-01"))
                .isNull();
        assertThat(RunViews.traceId("ff-" + ID + "-00f067aa0ba902b7-01")).isNull();
        assertThat(RunViews.traceId("00-" + ID + "-00f067aa0ba902b7-01-extra")).isNull();
    }
}
