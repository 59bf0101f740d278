package io.worldflow.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.SerializationException;
import io.worldflow.event.Event;
import io.worldflow.event.SignalReceived;
import io.worldflow.event.SignalRequested;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.event.WorkflowStarted;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static io.worldflow.format.Samples.T0;
import static io.worldflow.format.Samples.oneOfEach;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A single event, a timeline and an error: the forms the HTTP API serves and saved histories hold. */
class EventFormatTest {

    private final EventFormat format = new EventFormat();
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void theSampleHoldsEveryEventType() {
        Set<Class<?>> all = new HashSet<>();
        Deque<Class<?>> todo = new ArrayDeque<>(List.of(Event.class));
        while (!todo.isEmpty()) {
            Class<?> c = todo.pop();
            if (c.isRecord()) {
                all.add(c);
            }
            if (c.getPermittedSubclasses() != null) {
                todo.addAll(List.of(c.getPermittedSubclasses()));
            }
        }

        assertThat(Samples.everyEvent())
                .extracting(Object::getClass)
                .containsOnlyElementsOf(all)
                .containsAll(all);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.worldflow.format.Samples#everyEvent")
    void everyEventRoundTripsToAnEqualRecord(Event event) {
        String text = format.encode(event);

        assertThat(format.decode(text)).isEqualTo(event);
        // and the text is stable: encoding the decoded event gives the same JSON
        assertThat(format.encode(format.decode(text))).isEqualTo(text);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.worldflow.format.Samples#everyEvent")
    void everyEventHasTypeSeqRunIdAndAtAsItsCommonFields(Event event) throws Exception {
        JsonNode node = json.readTree(format.encode(event));

        assertThat(node.get("type").asText()).isEqualTo(event.getClass().getSimpleName());
        assertThat(node.get("seq").isIntegralNumber()).isTrue();
        assertThat(node.get("seq").asLong()).isEqualTo(event.seq());
        assertThat(node.get("runId").asText()).isEqualTo("r1");
        assertThat(node.get("at").isTextual()).isTrue();
        assertThat(Instant.parse(node.get("at").asText())).isEqualTo(event.at());
    }

    @Test
    void instantsAreIsoStringsKeepingNanoseconds() throws Exception {
        Event started = oneOfEach().getFirst();

        JsonNode node = json.readTree(format.encode(started));

        assertThat(node.get("at").asText()).isEqualTo("2030-01-01T10:20:30.123456789Z");
        assertThat(node.get("deadline").asText()).isEqualTo("2030-01-01T01:00:00Z");
    }

    @Test
    void payloadsAreEmbeddedAsJsonNotAsEscapedStrings() throws Exception {
        Payload result = new Payload("{\"sku\":\"a\",\"weightGrams\":12}", "com.acme.Label");
        String text = format.encode(new StepCompleted("r1", 4, T0, "charge", 1, result));

        JsonNode embedded = json.readTree(text).get("result");

        assertThat(embedded.get("type").asText()).isEqualTo("com.acme.Label");
        assertThat(embedded.get("value").isObject()).isTrue();
        assertThat(embedded.get("value").get("sku").asText()).isEqualTo("a");
        assertThat(embedded.get("value").get("weightGrams").asInt()).isEqualTo(12);
        assertThat(text)
                .contains("\"value\":{\"sku\":\"a\",\"weightGrams\":12}")
                .doesNotContain("\\\"");
    }

    @Test
    void aPayloadWithoutATypeIsEmbeddedAsValueAlone() throws Exception {
        String text = format.encode(
                new SignalReceived("r1", 1, T0, "approval", "approval", new Payload("[1,2,3]", null), T0));

        JsonNode embedded = json.readTree(text).get("payload");

        assertThat(embedded.has("type")).isFalse();
        assertThat(embedded.get("value").isArray()).isTrue();
        assertThat(((SignalReceived) format.decode(text)).payload()).isEqualTo(new Payload("[1,2,3]", null));
    }

    @Test
    void nullPayloadsAndMissingOptionalFieldsRoundTrip() {
        List<Event> sample = List.of(
                new WorkflowCompleted("r1", 3, T0, Payload.NULL),
                new WorkflowCompleted("r1", 3, T0, null),
                new WorkflowStarted("r1", 0, T0, "w", Payload.NULL, null),
                new SignalRequested("r1", 1, T0, "approval", "approval", null));

        for (Event e : sample) {
            assertThat(format.decode(format.encode(e))).isEqualTo(e);
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "not json",
                "{}",
                "[]",
                "null",
                "{\"type\":\"NoSuchEvent\",\"seq\":0,\"runId\":\"r1\",\"at\":\"2030-01-01T00:00:00Z\"}",
                "{\"type\":\"TimerFired\",\"seq\":-1,\"runId\":\"r1\",\"at\":\"2030-01-01T00:00:00Z\",\"timerId\":\"t\"}",
                "{\"type\":\"TimerFired\",\"seq\":1,\"at\":\"2030-01-01T00:00:00Z\",\"timerId\":\"t\"}",
                "{\"type\":\"TimerFired\",\"seq\":1,\"runId\":\"r1\",\"at\":\"yesterday\",\"timerId\":\"t\"}",
                "{\"type\":\"TimerFired\",\"seq\":\"one\",\"runId\":\"r1\",\"at\":\"2030-01-01T00:00:00Z\",\"timerId\":\"t\"}",
                "{\"type\":\"TimerFired\",\"seq\":1,\"runId\":\"r1\",\"at\":\"2030-01-01T00:00:00Z\",\"timerId\":\"t\""
            })
    void decodingGarbageIsASerializationException(String garbage) {
        assertThatThrownBy(() -> format.decode(garbage))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("cannot read event");
    }

    @Test
    void decodingGarbageQuotesOnlyTheStartOfAHugeText() {
        String huge = "x".repeat(10_000);

        assertThatThrownBy(() -> format.decode(huge))
                .isInstanceOf(SerializationException.class)
                .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(1_000));
    }

    @Test
    void anInstantInAnotherIsoFormIsStillReadAndAnUnreadableOneIsRefused() {
        String offset =
                "{\"type\":\"WorkflowCanceled\",\"runId\":\"r1\",\"seq\":3,\"at\":\"2026-11-22T05:58:40.5+01:00\"}";
        String garbage = offset.replace("2026-11-22T05:58:40.5+01:00", "yesterday");

        assertThat(format.decode(offset).at()).isEqualTo(Instant.parse("2026-11-22T04:58:40.5Z"));
        assertThatThrownBy(() -> format.decode(garbage))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("yesterday");
    }

    @Test
    void aTimelineRoundTripsAsAJsonArray() throws Exception {
        List<Event> timeline = oneOfEach();

        String text = format.encodeTimeline(timeline);

        JsonNode node = json.readTree(text);
        assertThat(node.isArray()).isTrue();
        assertThat(node).hasSize(timeline.size());
        assertThat(node.get(4).get("type").asText()).isEqualTo("StepCompleted");
        assertThat(format.decodeTimeline(text)).containsExactlyElementsOf(timeline);
    }

    @Test
    void anEmptyTimelineRoundTrips() {
        assertThat(format.decodeTimeline(format.encodeTimeline(List.of()))).isEmpty();
    }

    @Test
    void decodingAGarbageTimelineIsASerializationException() {
        assertThatThrownBy(() -> format.decodeTimeline("[{\"type\":\"Nope\"}]"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("timeline");
        assertThatThrownBy(() -> format.decodeTimeline("{")).isInstanceOf(SerializationException.class);
    }

    @Test
    void largeTimelinesRoundTrip() {
        List<Event> timeline = new ArrayList<>();
        timeline.add(new WorkflowStarted("r1", 0, T0, "w", Payload.NULL, null));
        IntStream.range(1, 500)
                .forEach(i -> timeline.add(new StepCompleted(
                        "r1",
                        i,
                        T0.plusMillis(i),
                        "s~" + i,
                        1,
                        new Payload("{\"sku\":\"sku-" + i + "\",\"weightGrams\":" + i + "}", "com.acme.Label"))));

        assertThat(format.decodeTimeline(format.encodeTimeline(timeline))).isEqualTo(timeline);
    }

    @Test
    void errorsRoundTripWithTheirCauses() {
        ErrorInfo error = ErrorInfo.of(new IllegalStateException("boom", new IOException("disk full")));

        ErrorInfo back = format.decodeError(format.encodeError(error));

        assertThat(back).isEqualTo(error);
        assertThat(back.causeTypes()).containsExactly("java.io.IOException");
    }

    @Test
    void anErrorWithoutMessageOrTraceRoundTrips() {
        ErrorInfo error = new ErrorInfo("com.acme.Oops", null, null, null);

        assertThat(format.decodeError(format.encodeError(error))).isEqualTo(error);
    }

    @Test
    void decodingAGarbageErrorIsASerializationException() {
        assertThatThrownBy(() -> format.decodeError("{\"message\":\"no type\"}"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("error");
        assertThatThrownBy(() -> format.decodeError("<html>")).isInstanceOf(SerializationException.class);
    }
}
