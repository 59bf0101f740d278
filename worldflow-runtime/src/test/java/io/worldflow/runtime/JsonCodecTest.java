package io.worldflow.runtime;

import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.RecyclerPool;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.SerializationException;
import io.worldflow.event.Event;
import io.worldflow.event.MarkerRecorded;
import io.worldflow.event.ParallelCompleted;
import io.worldflow.event.ParallelStarted;
import io.worldflow.event.SignalReceived;
import io.worldflow.event.SignalRequested;
import io.worldflow.event.SignalTimedOut;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.StepFailed;
import io.worldflow.event.StepRetrying;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.StepStarted;
import io.worldflow.event.TimerFired;
import io.worldflow.event.TimerScheduled;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.event.WorkflowRetried;
import io.worldflow.event.WorkflowCanceled;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.event.WorkflowFailed;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.spi.EventCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonCodecTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final Instant T_NANOS = Instant.parse("2030-01-01T10:20:30.123456789Z");

    private final JsonCodec codec = new JsonCodec();
    private final EventCodec events = codec.eventCodec();
    private final ObjectMapper json = new ObjectMapper();

    public record Label(String sku, int weightGrams) {
    }

    public record Order(String id, List<Label> items, BigDecimal total, Instant placedAt, Priority priority,
                        Optional<String> note) {
    }

    public enum Priority { LOW, HIGH }

    /** An enum whose constants have bodies: their runtime classes are anonymous subclasses. */
    public enum Shape {
        SQUARE {
            @Override
            int corners() {
                return 4;
            }
        },
        CIRCLE {
            @Override
            int corners() {
                return 0;
            }
        };

        abstract int corners();
    }

    /** Serializes to an object that holds itself. */
    public static final class SelfReferencing {
        public SelfReferencing getSelf() {
            return this;
        }
    }

    public static final class Parent {
        public final List<Child> children = new ArrayList<>();
    }

    public static final class Child {
        public Parent parent;
    }

    private Payload payload(Object value) {
        return codec.encode(value, "test value");
    }

    // ---------------------------------------------------------------- events

    /** One of each event type, with payloads and errors that exercise the embedding. */
    static List<Event> oneOfEach() {
        Payload input = new Payload("{\"id\":\"o-1\",\"items\":[{\"sku\":\"a\",\"weightGrams\":12}],\"total\":12.50}",
                "io.worldflow.runtime.JsonCodecTest$Order");
        Payload list = new Payload("[{\"sku\":\"a\",\"weightGrams\":1}]",
                "java.util.List<io.worldflow.runtime.JsonCodecTest$Label>");
        ErrorInfo error = ErrorInfo.of(new IllegalStateException("boom", new IOException("disk")));
        return List.of(
                new WorkflowStarted("r1", 0, T_NANOS, "order.fulfil.v1", input, T0.plusSeconds(3600)),
                new StepScheduled("r1", 1, T0, "charge", "charge"),
                new StepStarted("r1", 2, T0, "charge", 1),
                new StepRetrying("r1", 3, T0, "charge", 1, error, T0.plusSeconds(2)),
                new StepCompleted("r1", 4, T0, "charge", 2, new Payload("\"ch-1\"", "java.lang.String")),
                new StepFailed("r1", 5, T0, "reserve", 3, error),
                new TimerScheduled("r1", 6, T0, "cool-off", "cool-off", T0.plus(Duration.ofMinutes(10))),
                new TimerFired("r1", 7, T0.plus(Duration.ofMinutes(10)), "cool-off"),
                new SignalRequested("r1", 8, T0, "approval", "approval", T0.plus(Duration.ofDays(2))),
                new SignalReceived("r1", 9, T0, "approval", "approval", new Payload("{\"ok\":true}", null), T0),
                new SignalTimedOut("r1", 10, T0, "approval~2", "approval"),
                new ParallelStarted("r1", 11, T0, "labels", "labels", 3),
                new ParallelCompleted("r1", 12, T0, "labels"),
                new MarkerRecorded("r1", 13, T0, "@version:fix-1", "version", new Payload("2", "java.lang.Integer")),
                new WorkflowCancelRequested("r1", 14, T0, "requested by client", T0.minusSeconds(1)),
                new WorkflowCanceled("r1", 15, T0),
                new WorkflowCompleted("r1", 16, T0, list),
                new WorkflowFailed("r1", 17, T0, error),
                new WorkflowRetried("r1", 18, T0, "reserve", "stock arrived"));
    }

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

        assertThat(oneOfEach()).extracting(Object::getClass).containsExactlyInAnyOrderElementsOf(all);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oneOfEach")
    void everyEventRoundTripsToAnEqualRecord(Event event) {
        String text = events.encode(event);

        assertThat(events.decode(text)).isEqualTo(event);
        // and the text is stable: encoding the decoded event gives the same JSON
        assertThat(events.encode(events.decode(text))).isEqualTo(text);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oneOfEach")
    void everyEventHasTypeSeqRunIdAndAtAsItsCommonFields(Event event) throws Exception {
        JsonNode node = json.readTree(events.encode(event));

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

        JsonNode node = json.readTree(events.encode(started));

        assertThat(node.get("at").asText()).isEqualTo("2030-01-01T10:20:30.123456789Z");
        assertThat(node.get("deadline").asText()).isEqualTo("2030-01-01T01:00:00Z");
    }

    @Test
    void payloadsAreEmbeddedAsJsonNotAsEscapedStrings() throws Exception {
        Payload result = payload(new Label("a", 12));
        String text = events.encode(new StepCompleted("r1", 4, T0, "charge", 1, result));

        JsonNode embedded = json.readTree(text).get("result");

        assertThat(embedded.get("type").asText()).isEqualTo("io.worldflow.runtime.JsonCodecTest$Label");
        assertThat(embedded.get("value").isObject()).isTrue();
        assertThat(embedded.get("value").get("sku").asText()).isEqualTo("a");
        assertThat(embedded.get("value").get("weightGrams").asInt()).isEqualTo(12);
        assertThat(text).contains("\"value\":{\"sku\":\"a\",\"weightGrams\":12}").doesNotContain("\\\"");
    }

    @Test
    void aPayloadWithoutATypeIsEmbeddedAsValueAlone() throws Exception {
        String text = events.encode(new SignalReceived("r1", 1, T0, "approval", "approval",
                new Payload("[1,2,3]", null), T0));

        JsonNode embedded = json.readTree(text).get("payload");

        assertThat(embedded.has("type")).isFalse();
        assertThat(embedded.get("value").isArray()).isTrue();
        assertThat(((SignalReceived) events.decode(text)).payload()).isEqualTo(new Payload("[1,2,3]", null));
    }

    @Test
    void nullPayloadsAndMissingOptionalFieldsRoundTrip() {
        List<Event> sample = List.of(
                new WorkflowCompleted("r1", 3, T0, Payload.NULL),
                new WorkflowCompleted("r1", 3, T0, null),
                new WorkflowStarted("r1", 0, T0, "w", Payload.NULL, null),
                new SignalRequested("r1", 1, T0, "approval", "approval", null));

        for (Event e : sample) {
            assertThat(events.decode(events.encode(e))).isEqualTo(e);
        }
    }

    @Test
    void decimalsAndStringsInPayloadsSurviveTheEmbeddingExactly() {
        record Money(BigDecimal amount, double rate, long big, String text) {
        }
        Money money = new Money(new BigDecimal("1234567890.1200"), 0.1, Long.MAX_VALUE,
                "quote \" backslash \\ line\n tab\t unicode é \u2028 emoji 😀");
        Payload p = codec.encode(money, "money");

        Event back = events.decode(events.encode(new StepCompleted("r1", 1, T0, "pay", 1, p)));

        Payload restored = ((StepCompleted) back).result();
        assertThat(codec.decode(restored, Money.class, "money")).isEqualTo(money);
    }

    @ParameterizedTest
    @ValueSource(strings = {
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
        assertThatThrownBy(() -> events.decode(garbage))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("cannot read event");
    }

    @Test
    void decodingGarbageQuotesOnlyTheStartOfAHugeText() {
        String huge = "x".repeat(10_000);

        assertThatThrownBy(() -> events.decode(huge))
                .isInstanceOf(SerializationException.class)
                .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(1_000));
    }

    @Test
    void aTimelineRoundTripsAsAJsonArray() throws Exception {
        List<Event> timeline = oneOfEach();

        String text = codec.encodeEvents(timeline);

        JsonNode node = json.readTree(text);
        assertThat(node.isArray()).isTrue();
        assertThat(node).hasSize(timeline.size());
        assertThat(node.get(4).get("type").asText()).isEqualTo("StepCompleted");
        assertThat(codec.decodeEvents(text)).containsExactlyElementsOf(timeline);
    }

    @Test
    void anEmptyTimelineRoundTrips() {
        assertThat(codec.decodeEvents(codec.encodeEvents(List.of()))).isEmpty();
    }

    @Test
    void decodingAGarbageTimelineIsASerializationException() {
        assertThatThrownBy(() -> codec.decodeEvents("[{\"type\":\"Nope\"}]"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("timeline");
        assertThatThrownBy(() -> codec.decodeEvents("{"))
                .isInstanceOf(SerializationException.class);
    }

    @Test
    void theEventsOfAnAppendRoundTripAsOneCompactArrayOfTheSameObjectsWithoutTheirRunAndNumber() throws Exception {
        List<Event> all = oneOfEach();
        Map<String, String> storedTypes = Map.of("java.lang.String", "String", "java.lang.Integer", "Integer",
                "io.worldflow.runtime.JsonCodecTest$Order", "io.worldflow.runtime.JsonCodecTest$Order",
                "java.util.List<io.worldflow.runtime.JsonCodecTest$Label>", "List<io.worldflow.runtime.JsonCodecTest$Label>");

        String text = events.encodeAll(all);

        assertThat(text).doesNotContain("\n").doesNotContain("\"runId\"").doesNotContain("\"seq\"")
                .doesNotContain(":null").doesNotContain("\"attempt\":1,").startsWith("[{\"type\":").endsWith("}]");
        JsonNode node = json.readTree(text);
        for (int i = 0; i < all.size(); i++) {
            // the mapper's form of the event, less what a record leaves out or writes shorter
            ObjectNode whole = (ObjectNode) json.readTree(events.encode(all.get(i)));
            whole.remove(List.of("runId", "seq"));
            List<String> nulls = new ArrayList<>();
            whole.properties().forEach(p -> {
                if (p.getValue().isNull()) {
                    nulls.add(p.getKey());
                }
                if (p.getValue().has("value") && p.getValue().has("type")) {
                    ((ObjectNode) p.getValue()).put("type", storedTypes.get(p.getValue().get("type").asText()));
                }
            });
            whole.remove(nulls);
            if (whole.has("attempt") && whole.get("attempt").asInt() == 1) {
                whole.remove("attempt");
            }
            Instant at = all.get(i).at();
            long nanos = i == 0 ? at.getEpochSecond() * 1_000_000_000L + at.getNano()
                    : Duration.between(all.get(i - 1).at(), at).toNanos();
            whole.set("at", json.readTree(Long.toString(nanos)));
            assertThat(node.get(i)).isEqualTo(whole);
        }
        assertThat(events.decodeAll("r1", 0, text)).containsExactlyElementsOf(all);
        assertThat(events.decodeAll("r1", 0, events.encodeAll(List.of()))).isEmpty();
        // a single event keeps its run and number: the HTTP API and saved histories read it alone
        assertThat(events.encode(all.get(3))).contains("\"runId\":\"r1\",\"seq\":3,");
    }

    @Test
    void theFirstEventsTimeIsStoredAsNanosecondsSinceTheEpochAndEachLaterOneAsTheNanosecondsAfterThePrevious() {
        Instant t = Instant.parse("2026-11-22T08:36:33.288246250Z");
        List<Event> four = List.of(new StepScheduled("r1", 4, t, "a", "a"),
                new StepStarted("r1", 5, t.plusNanos(2_694), "a", 1),
                new StepStarted("r1", 6, t.minusSeconds(3).plusNanos(1), "a", 2),   // the clock stepped back
                new TimerScheduled("r1", 7, t.plusMillis(5), "nap", "nap", t.plusSeconds(60)));

        String text = events.encodeAll(four);

        assertThat(text).contains("\"at\":1795336593288246250,", "\"at\":2694,",
                "\"at\":-3000002693,", "\"at\":3004999999,", "\"fireAt\":\"2026-11-22T08:37:33.288246250Z\"");
        assertThat(events.decodeAll("r1", 4, text)).containsExactlyElementsOf(four);
    }

    @Test
    void timesTooFarApartForANumberOfNanosecondsAreStoredAsText() {
        Instant early = Instant.parse("0001-01-01T00:00:00.000000001Z");
        Instant late = Instant.parse("9999-12-31T23:59:59.999999999Z");
        List<Event> two = List.of(new StepScheduled("r1", 0, early, "a", "a"), new StepStarted("r1", 1, late, "a", 1));

        String text = events.encodeAll(two);

        assertThat(text).contains("\"at\":\"0001-01-01T00:00:00.000000001Z\"", "\"at\":\"9999-12-31T23:59:59.999999999Z\"");
        assertThat(events.decodeAll("r1", 0, text)).containsExactlyElementsOf(two);
    }

    @Test
    void aFirstTimeBeforeTheEpochIsANegativeNumberAndComesBackExactly() {
        Instant before = Instant.parse("1969-12-31T23:59:59.999999999Z");
        List<Event> one = List.of(new TimerFired("r1", 3, before, "t"));

        String text = events.encodeAll(one);

        assertThat(text).isEqualTo("[{\"type\":\"TimerFired\",\"at\":-1,\"timerId\":\"t\"}]");
        assertThat(events.decodeAll("r1", 3, text)).containsExactlyElementsOf(one);
    }

    @Test
    void anAttemptIsLeftOutWhenItIsTheFirstAndReadAsTheFirstWhenMissing() {
        List<Event> three = List.of(new StepStarted("r1", 0, T0, "a", 1), new StepStarted("r1", 1, T0, "a", 2),
                new StepCompleted("r1", 2, T0, "a", 0, new Payload("1", "java.lang.Integer")));

        String text = events.encodeAll(three);

        assertThat(text).isEqualTo("[{\"type\":\"StepStarted\",\"at\":1893456000000000000,\"stepId\":\"a\"},"
                + "{\"type\":\"StepStarted\",\"at\":0,\"stepId\":\"a\",\"attempt\":2},"
                + "{\"type\":\"StepCompleted\",\"at\":0,\"stepId\":\"a\",\"attempt\":0,"
                + "\"result\":{\"type\":\"Integer\",\"value\":1}}]");
        assertThat(events.decodeAll("r1", 0, text)).containsExactlyElementsOf(three);
        // other numbers are left out when zero, and read as zero when missing
        List<Event> none = List.of(new ParallelStarted("r1", 0, T0, "p", "p", 0));
        assertThat(events.encodeAll(none)).doesNotContain("branches");
        assertThat(events.decodeAll("r1", 0, events.encodeAll(none))).containsExactlyElementsOf(none);
    }

    @Test
    void aRecordWrittenBeforeTheShorterFormsIsReadAsItWasWritten() {
        String older = "[{\"type\":\"StepCompleted\",\"at\":\"2026-11-22T13:36:49.750150195Z\",\"stepId\":\"s2\","
                + "\"attempt\":1,\"result\":{\"type\":\"java.util.Map<java.lang.String,java.lang.Integer>\","
                + "\"value\":{\"i\":2}}},{\"type\":\"StepScheduled\",\"at\":295400,\"stepId\":\"s3\",\"name\":\"s3\"}]";
        Instant at = Instant.parse("2026-11-22T13:36:49.750150195Z");

        List<Event> read = events.decodeAll("r1", 6, older);

        assertThat(read).containsExactly(
                new StepCompleted("r1", 6, at, "s2", 1,
                        new Payload("{\"i\":2}", "java.util.Map<java.lang.String,java.lang.Integer>")),
                new StepScheduled("r1", 7, at.plusNanos(295_400), "s3", "s3"));
        assertThat(events.encodeAll(read)).isEqualTo("[{\"type\":\"StepCompleted\",\"at\":1795354609750150195,"
                + "\"stepId\":\"s2\",\"result\":{\"type\":\"Map<String,Integer>\",\"value\":{\"i\":2}}},"
                + "{\"type\":\"StepScheduled\",\"at\":295400,\"stepId\":\"s3\",\"name\":\"s3\"}]");
    }

    @Test
    void aRecordWhoseTimesAreNotInstantsIsRefusedNamingTheEvent() {
        String first = "{\"type\":\"StepScheduled\",\"at\":\"2026-11-22T08:36:33Z\",\"stepId\":\"a\",\"name\":\"a\"}";

        assertThatThrownBy(() -> events.decodeAll("r1", 0,
                "[{\"type\":\"StepScheduled\",\"at\":-1.5,\"stepId\":\"a\",\"name\":\"a\"}]"))
                .isInstanceOf(SerializationException.class).hasMessageContaining("run r1")
                .hasMessageContaining("event 0 has at -1.5, not an instant");
        assertThatThrownBy(() -> events.decodeAll("r1", 0,
                "[" + first + ",{\"type\":\"StepStarted\",\"at\":1.5,\"stepId\":\"a\",\"attempt\":1}]"))
                .isInstanceOf(SerializationException.class).hasMessageContaining("event 1 has at 1.5, not an instant");
        assertThatThrownBy(() -> events.decodeAll("r1", 0,
                "[" + first + ",{\"type\":\"StepStarted\",\"at\":\"soon\",\"stepId\":\"a\",\"attempt\":1}]"))
                .isInstanceOf(SerializationException.class).hasMessageContaining("event 1 has at soon, not an instant");
        assertThatThrownBy(() -> events.decodeAll("r1", 0,
                "[" + first + ",{\"type\":\"StepStarted\",\"at\":99999999999999999999,\"stepId\":\"a\",\"attempt\":1}]"))
                .isInstanceOf(SerializationException.class).hasMessageContaining("event 1 has at 99999999999999999999");
    }

    @Test
    void theRecordGivesTheEventsTheirRunAndNumbersFromItsFirstOn() {
        List<Event> two = List.of(new StepScheduled("r1", 7, T0, "pay", "pay"), new StepStarted("r1", 8, T0, "pay", 1));
        String text = events.encodeAll(two);

        assertThat(events.decodeAll("r1", 7, text)).containsExactlyElementsOf(two);
        assertThat(events.decodeAll("other", 40, text)).containsExactly(new StepScheduled("other", 40, T0, "pay", "pay"),
                new StepStarted("other", 41, T0, "pay", 1));
    }

    @Test
    void aRecordWrittenWithEachEventsRunAndNumberIsReadWhenTheyAgreeAndRefusedWhenNot() {
        List<Event> two = List.of(new StepScheduled("r1", 7, T0, "pay", "pay"), new StepStarted("r1", 8, T0, "pay", 1));
        String whole = "[" + events.encode(two.get(0)) + "," + events.encode(two.get(1)) + "]";

        assertThat(events.decodeAll("r1", 7, whole)).containsExactlyElementsOf(two);
        assertThatThrownBy(() -> events.decodeAll("r2", 7, whole))
                .isInstanceOf(SerializationException.class).hasMessageContaining("run r2")
                .hasMessageContaining("names run r1");
        assertThatThrownBy(() -> events.decodeAll("r1", 6, whole))
                .isInstanceOf(SerializationException.class).hasMessageContaining("event 6 is numbered 7");
    }

    @Test
    void eventsOfSeveralRunsOrWithAGapInTheirNumbersAreNotOneRecord() {
        assertThatThrownBy(() -> events.encodeAll(List.of(new StepScheduled("r1", 1, T0, "a", "a"),
                new StepScheduled("r2", 2, T0, "b", "b"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("seq 2 of run r2");
        assertThatThrownBy(() -> events.encodeAll(List.of(new StepScheduled("r1", 1, T0, "a", "a"),
                new StepScheduled("r1", 3, T0, "b", "b"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("event 1 is seq 3 of run r1");
    }

    @Test
    void textThatJsonMustEscapeComesBackFromARecordCharacterForCharacter() throws Exception {
        String odd = "q\"b\\s/n\nr\rt\tb\bf\fz\u0000e\u001fé€😀";
        ErrorInfo error = ErrorInfo.of(new IllegalStateException(odd));
        List<Event> three = List.of(new StepScheduled("r1", 1, T0, "loop/" + odd, odd),
                new MarkerRecorded("r1", 2, T0, "m", odd, new Payload(codec.encode(odd, "v").json(), odd)),
                new StepFailed("r1", 3, T0, odd, 2, error));

        String text = events.encodeAll(three);

        assertThat(text).doesNotContain("\n").doesNotContain("\u0000").doesNotContain("\u001f");
        assertThat(json.readTree(text).get(0).get("name").asText()).isEqualTo(odd);
        assertThat(events.decodeAll("r1", 1, text)).containsExactlyElementsOf(three);
        assertThat(codec.decode(((MarkerRecorded) events.decodeAll("r1", 1, text).get(1)).value(), String.class, "v"))
                .isEqualTo(odd);
    }

    @Test
    void payloadNumbersInARecordComeBackAsFromASingleEvent() {
        Payload exact = new Payload("{\"total\":12.50,\"big\":1e400,\"n\":12345678901234567890123,\"f\":0.1}",
                "java.util.Map");
        List<Event> two = List.of(new MarkerRecorded("r1", 1, T0, "m", "m", exact), new WorkflowCompleted("r1", 2, T0, exact));

        List<Event> back = events.decodeAll("r1", 1, events.encodeAll(two));

        assertThat(back.get(0)).isEqualTo(events.decode(events.encode(two.get(0))));
        assertThat(back.get(1)).isEqualTo(events.decode(events.encode(two.get(1))));
        assertThat(((MarkerRecorded) back.get(0)).value().json()).contains("12.50", "12345678901234567890123", "0.1");
    }

    @Test
    void aPrettyPrintedPayloadInAnArrayOfEventsDecodesToTheSameValue() {
        Payload pretty = new Payload("{\n  \"a\" : 1,\n  \"b\" : [ 2, 3 ]\n}", "java.util.Map");
        List<Event> two = List.of(new MarkerRecorded("r1", 1, T0, "m", "m", pretty),
                new WorkflowCompleted("r1", 2, T0, pretty));

        List<Event> back = events.decodeAll("r1", 1, events.encodeAll(two));

        assertThat(back).hasSize(2);
        assertThat(((WorkflowCompleted) back.get(1)).output().type()).isEqualTo("java.util.Map");
        assertThat(codec.decode(((WorkflowCompleted) back.get(1)).output(), Map.class, "output"))
                .isEqualTo(Map.of("a", 1, "b", List.of(2, 3)));
    }

    @Test
    void anInstantInAnotherIsoFormIsStillReadAndAnUnreadableOneIsRefused() {
        String offset = "{\"type\":\"WorkflowCanceled\",\"runId\":\"r1\",\"seq\":3,\"at\":\"2026-11-22T05:58:40.5+01:00\"}";
        String garbage = offset.replace("2026-11-22T05:58:40.5+01:00", "yesterday");

        assertThat(events.decode(offset).at()).isEqualTo(Instant.parse("2026-11-22T04:58:40.5Z"));
        assertThatThrownBy(() -> events.decode(garbage))
                .isInstanceOf(SerializationException.class).hasMessageContaining("yesterday");
    }

    @Test
    void decodingSomethingOtherThanAnArrayOfEventsNamesTheRunAndTheText() {
        assertThatThrownBy(() -> events.decodeAll("r1", 0, "[{\"type\":\"Nope\"}]"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("cannot read events of run r1 [{\"type\":\"Nope\"}]");
        for (String bad : List.of("[null]", "{", "[{}", "[1]", "[{\"type\":\"WorkflowCanceled\",\"at\":\"2026-11-22T04:58:40Z\"}] x", "")) {
            assertThatThrownBy(() -> events.decodeAll("r1", 0, bad)).as(bad)
                    .isInstanceOf(SerializationException.class).hasMessageContaining("run r1");
        }
    }

    @Test
    void anObjectInARecordThatIsNotAnEventOfThisVersionIsRefusedNamingWhatIsWrong() {
        String at = "\"at\":\"2026-11-22T04:58:40Z\"";
        List<String> refusedAndWhy = List.of(
                "[{\"type\":\"Nope\"," + at + "}]", "event 3 has type Nope, which is no event type",
                "[{\"type\":7," + at + "}]", "event 3 has type 7, which is no event type",
                "[{" + at + ",\"stepId\":\"a\"}]", "event 3 has no type",
                "[{\"type\":\"TimerFired\"," + at + ",\"timerId\":\"t\",\"color\":\"red\"}]",
                "event 3 (TimerFired) has property color, which a TimerFired has not",
                "[{\"type\":\"StepStarted\"," + at + ",\"stepId\":\"a\",\"attempt\":3000000000}]",
                "event 3 has attempt 3000000000, not a whole number in range",
                "[{\"type\":\"StepStarted\"," + at + ",\"stepId\":\"a\",\"attempt\":\"1\"}]",
                "event 3 has attempt 1, not a whole number in range",
                "[{\"type\":\"StepScheduled\"," + at + ",\"stepId\":[\"a\"],\"name\":\"a\"}]",
                "event 3 has stepId [, not a string",
                "[{\"type\":\"StepCompleted\"," + at + ",\"stepId\":\"a\",\"attempt\":1,\"result\":\"done\"}]",
                "event 3 has result done, not a payload",
                "[{\"type\":\"TimerScheduled\"," + at + ",\"timerId\":\"t\",\"name\":\"t\",\"fireAt\":\"later\"}]",
                "event 3 has fireAt later, not an instant",
                "[{\"type\":\"TimerFired\",\"timerId\":\"t\"}]", "event 3 (TimerFired): at");

        for (int i = 0; i < refusedAndWhy.size(); i += 2) {
            String text = refusedAndWhy.get(i);
            String why = refusedAndWhy.get(i + 1);
            assertThatThrownBy(() -> events.decodeAll("r1", 3, text)).as(text)
                    .isInstanceOf(SerializationException.class)
                    .hasMessageStartingWith("cannot read events of run r1 " + text + ": " + why);
        }
    }

    @Test
    void anObjectWhoseTypeIsNotItsFirstPropertyIsReadAllTheSame() {
        String text = "[{\"stepId\":\"pay\",\"at\":\"2030-01-01T00:00:00Z\",\"type\":\"StepCompleted\",\"attempt\":2,"
                + "\"result\":{\"value\":{\"total\":12.50},\"type\":\"java.util.Map\"}},"
                + "{\"at\":1000,\"type\":\"TimerFired\",\"timerId\":\"t\"}]";

        assertThat(events.decodeAll("r1", 5, text)).containsExactly(
                new StepCompleted("r1", 5, T0, "pay", 2, new Payload("{\"total\":12.50}", "java.util.Map")),
                new TimerFired("r1", 6, T0.plusNanos(1000), "t"));
    }

    @Test
    void errorsRoundTripWithTheirCauses() {
        ErrorInfo error = ErrorInfo.of(new IllegalStateException("boom", new IOException("disk full")));

        ErrorInfo back = events.decodeError(events.encodeError(error));

        assertThat(back).isEqualTo(error);
        assertThat(back.causeTypes()).containsExactly("java.io.IOException");
    }

    @Test
    void anErrorWithoutMessageOrTraceRoundTrips() {
        ErrorInfo error = new ErrorInfo("com.acme.Oops", null, null, null);

        assertThat(events.decodeError(events.encodeError(error))).isEqualTo(error);
    }

    @Test
    void decodingAGarbageErrorIsASerializationException() {
        assertThatThrownBy(() -> events.decodeError("{\"message\":\"no type\"}"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("error");
        assertThatThrownBy(() -> events.decodeError("<html>"))
                .isInstanceOf(SerializationException.class);
    }

    // ---------------------------------------------------------------- payloads

    @Test
    void aRecordRoundTripsByItsRecordedType() {
        Order order = new Order("o-1", List.of(new Label("a", 1), new Label("b", 2)), new BigDecimal("12.50"),
                T_NANOS, Priority.HIGH, Optional.of("leave at door"));

        Payload p = payload(order);

        assertThat(p.type()).isEqualTo(Order.class.getName());
        assertThat((Object) codec.decode(p, null, "order")).isEqualTo(order);
        assertThat(codec.decode(p, Order.class, "order")).isEqualTo(order);
    }

    @Test
    void aListOfRecordsDecodesToRecordsNotMaps() {
        List<Label> labels = List.of(new Label("a", 1), new Label("b", 2));

        Payload p = payload(labels);

        assertThat(p.type()).isEqualTo("java.util.List<" + Label.class.getName() + ">");
        List<Label> back = codec.decode(p, null, "labels");
        assertThat(back).containsExactlyElementsOf(labels);
        assertThat(back.getFirst()).isInstanceOf(Label.class);
    }

    @Test
    void aListOfListsKeepsItsInnerElementType() {
        List<List<Label>> nested = List.of(List.of(new Label("a", 1)), List.of());

        Object back = codec.decode(payload(nested), null, "nested");

        assertThat(back).isEqualTo(nested);
    }

    @Test
    void aMapOfRecordsDecodesToRecords() {
        Map<String, Label> byId = new LinkedHashMap<>();
        byId.put("x", new Label("a", 1));
        byId.put("y", new Label("b", 2));

        Payload p = payload(byId);

        assertThat(p.type()).isEqualTo("java.util.Map<java.lang.String," + Label.class.getName() + ">");
        Map<String, Label> back = codec.decode(p, null, "map");
        assertThat(back).isEqualTo(byId);
        assertThat(back.get("y")).isInstanceOf(Label.class);
    }

    @Test
    void aSetOfRecordsDecodesToRecords() {
        Set<Label> set = new TreeSet<>(java.util.Comparator.comparing(Label::sku));
        set.add(new Label("a", 1));
        set.add(new Label("b", 2));

        Set<Label> back = codec.decode(payload(set), null, "set");

        assertThat(back).containsExactlyInAnyOrder(new Label("a", 1), new Label("b", 2));
    }

    @Test
    void emptyCollectionsRoundTrip() {
        assertThat((List<?>) codec.decode(payload(List.of()), null, "empty list")).isEmpty();
        assertThat((Map<?, ?>) codec.decode(payload(Map.of()), null, "empty map")).isEmpty();
    }

    @Test
    void anOptionalOfARecordRoundTrips() {
        Payload p = payload(Optional.of(new Label("a", 1)));

        assertThat(p.type()).isEqualTo("java.util.Optional<" + Label.class.getName() + ">");
        assertThat((Object) codec.decode(p, null, "optional")).isEqualTo(Optional.of(new Label("a", 1)));
    }

    @Test
    void anEmptyOptionalDecodesToAnEmptyOptionalNotNull() {
        Payload p = payload(Optional.empty());

        Object byRecordedType = codec.decode(p, null, "optional");
        Optional<?> byGivenType = codec.decode(p, Optional.class, "optional");

        assertThat(byRecordedType).isEqualTo(Optional.empty());
        assertThat(byGivenType).isEmpty();
    }

    @Test
    void instantsRoundTripWithNanoseconds() {
        Payload p = payload(T_NANOS);

        assertThat(p.type()).isEqualTo("java.time.Instant");
        assertThat(p.json()).isEqualTo("\"2030-01-01T10:20:30.123456789Z\"");
        assertThat((Instant) codec.decode(p, null, "now")).isEqualTo(T_NANOS);
    }

    @Test
    void otherJavaTimeValuesRoundTrip() {
        assertThat((Duration) codec.decode(payload(Duration.ofMinutes(90)), null, "d")).isEqualTo(Duration.ofMinutes(90));
        assertThat((LocalDate) codec.decode(payload(LocalDate.of(2030, 2, 3)), null, "date"))
                .isEqualTo(LocalDate.of(2030, 2, 3));
    }

    @Test
    void enumsRoundTripByName() {
        Payload p = payload(Priority.HIGH);

        assertThat(p.type()).isEqualTo(Priority.class.getName());
        assertThat(p.json()).isEqualTo("\"HIGH\"");
        assertThat((Priority) codec.decode(p, null, "priority")).isEqualTo(Priority.HIGH);
    }

    @Test
    void enumConstantsWithBodiesAreRecordedAsTheirEnumType() {
        Payload p = payload(Shape.SQUARE);

        assertThat(p.type()).isEqualTo(Shape.class.getName());
        assertThat((Shape) codec.decode(p, null, "shape")).isSameAs(Shape.SQUARE);
        assertThat((Object) codec.decode(payload(List.of(Shape.CIRCLE)), null, "shapes")).isEqualTo(List.of(Shape.CIRCLE));
    }

    @Test
    void scalarsRoundTripAsTheirOwnTypes() {
        assertThat((Object) codec.decode(payload(42), null, "int")).isEqualTo(42);
        assertThat((Object) codec.decode(payload(42L), null, "long")).isEqualTo(42L);
        assertThat((Object) codec.decode(payload("text"), null, "string")).isEqualTo("text");
        assertThat((Object) codec.decode(payload(true), null, "bool")).isEqualTo(true);
        assertThat((Object) codec.decode(payload(new BigDecimal("0.10")), null, "decimal"))
                .isEqualTo(new BigDecimal("0.10"));
    }

    @Test
    void arraysRoundTrip() {
        Label[] labels = {new Label("a", 1)};

        assertThat((Label[]) codec.decode(payload(labels), null, "array")).containsExactly(new Label("a", 1));
        assertThat((int[]) codec.decode(payload(new int[]{1, 2}), null, "ints")).containsExactly(1, 2);
    }

    @Test
    void nullIsTheNullPayloadAndDecodesToNull() {
        assertThat(payload(null)).isSameAs(Payload.NULL);
        assertThat((Object) codec.decode(Payload.NULL, null, "nothing")).isNull();
        assertThat((Object) codec.decode(null, Label.class, "nothing")).isNull();
        assertThat((Object) codec.decode(Payload.NULL, Label.class, "nothing")).isNull();
    }

    @Test
    void aPayloadWithoutATypeDecodesAsPlainJson() {
        Object back = codec.decode(new Payload("{\"a\":[1,2]}", null), null, "untyped");

        assertThat(back).isEqualTo(Map.of("a", List.of(1, 2)));
    }

    @Test
    void aPayloadCanBeReadAsAnotherCompatibleType() {
        record LabelView(String sku) {
        }

        LabelView view = codec.decode(payload(new Label("a", 1)), LabelView.class, "view");

        assertThat(view).isEqualTo(new LabelView("a"));
    }

    @Test
    void aSelfReferencingObjectFailsNamingWhatWasBeingSerialized() {
        assertThatThrownBy(() -> codec.encode(new SelfReferencing(), "result of step 'loop' of run r1"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("result of step 'loop' of run r1")
                .hasMessageContaining(SelfReferencing.class.getName());
    }

    @Test
    void anIndirectCycleFailsNamingWhatWasBeingSerialized() {
        Parent parent = new Parent();
        Child child = new Child();
        child.parent = parent;
        parent.children.add(child);

        assertThatThrownBy(() -> codec.encode(parent, "input of workflow 'family'"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("input of workflow 'family'");
    }

    @Test
    void anAnonymousClassIsRefusedBecauseItCannotBeDecodedOnReplay() {
        Object anonymous = new Object() {
            @SuppressWarnings("unused")
            public String getName() {
                return "x";
            }
        };

        assertThatThrownBy(() -> codec.encode(anonymous, "result of step 'x'"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("anonymous");
    }

    @Test
    void payloadsAboveTheLimitAreRefusedWithTheSizeAndTheLimit() {
        JsonCodec small = new JsonCodec(JsonCodec.defaultPayloadMapper(), 100);
        String big = "x".repeat(200);

        assertThatThrownBy(() -> small.encode(big, "result of step 'download'"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("result of step 'download'")
                .hasMessageContaining("202 characters")
                .hasMessageContaining("limit of 100");
        assertThat(small.encode("x".repeat(98), "fits").size()).isEqualTo(100);
    }

    @Test
    void theDefaultLimitIsTwoMillionCharacters() {
        String big = "x".repeat(JsonCodec.DEFAULT_MAX_PAYLOAD_CHARS);

        assertThatThrownBy(() -> codec.encode(big, "huge"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("limit of " + JsonCodec.DEFAULT_MAX_PAYLOAD_CHARS);
    }

    @Test
    void aTinyLimitIsRejected() {
        assertThatThrownBy(() -> new JsonCodec(JsonCodec.defaultPayloadMapper(), 15))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("15");
    }

    @Test
    void decodingAsAnIncompatibleTypeNamesWhatAndTheType() {
        Payload p = payload("not a label");

        assertThatThrownBy(() -> codec.decode(p, Label.class, "signal 'approval'"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("signal 'approval'")
                .hasMessageContaining(Label.class.getName());
    }

    @Test
    void decodingARecordedTypeThatNoLongerExistsNamesIt() {
        Payload p = new Payload("{\"a\":1}", "com.acme.RemovedType");

        assertThatThrownBy(() -> codec.decode(p, null, "result of step 'old'"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("result of step 'old'")
                .hasMessageContaining("com.acme.RemovedType");
    }

    @Test
    void unknownPropertiesInAPayloadAreIgnored() {
        Payload p = new Payload("{\"sku\":\"a\",\"weightGrams\":3,\"addedLater\":true}", Label.class.getName());

        assertThat((Label) codec.decode(p, null, "label")).isEqualTo(new Label("a", 3));
    }

    @Test
    void largeTimelinesRoundTrip() {
        List<Event> timeline = new ArrayList<>();
        timeline.add(new WorkflowStarted("r1", 0, T0, "w", Payload.NULL, null));
        IntStream.range(1, 500).forEach(i -> timeline.add(
                new StepCompleted("r1", i, T0.plusMillis(i), "s~" + i, 1, payload(new Label("sku-" + i, i)))));

        assertThat(codec.decodeEvents(codec.encodeEvents(timeline))).isEqualTo(timeline);
    }

    @Test
    void readsAndWritesOnVirtualThreadsShareParseBuffersInsteadOfAllocatingThemPerThread() throws Exception {
        RecyclerPool<BufferRecycler> pool = codec.payloadMapper().getFactory()._getRecyclerPool();
        List<Event> two = List.of(new WorkflowStarted("r1", 0, T0, "w", Payload.NULL, null),
                new StepCompleted("r1", 1, T0, "pay", 1, new Payload("\"ok\"", "java.lang.String")));
        for (int i = 0; i < 20; i++) {
            Thread t = Thread.ofVirtual().start(() -> {
                assertThat(events.decodeAll("r1", 0, events.encodeAll(two))).isEqualTo(two);
                codec.payloadMapper().valueToTree(Map.of("k", 1));
            });
            t.join();
        }
        // one thread at a time: the recyclers released by one are taken by the next (a per-thread pool,
        // which virtual threads never reuse, reports -1 here)
        assertThat(pool.pooledCount()).isBetween(1, 3);
    }
}
