package io.worldflow.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.SerializationException;
import io.worldflow.event.Event;
import io.worldflow.event.MarkerRecorded;
import io.worldflow.event.ParallelStarted;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.StepFailed;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.StepStarted;
import io.worldflow.event.TimerFired;
import io.worldflow.event.TimerScheduled;
import io.worldflow.event.WorkflowCompleted;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.worldflow.format.Samples.T0;
import static io.worldflow.format.Samples.oneOfEach;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The events of one append as one log record ({@link EventFormat#encodeAll}), the form worlds store. */
class LogRecordTest {

    private final EventFormat format = new EventFormat();
    private final ObjectMapper json = new ObjectMapper();

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.worldflow.format.Samples#everyEvent")
    void everyEventRoundTripsAloneInARecordToAnEqualRecord(Event event) {
        String text = format.encodeAll(List.of(event));

        assertThat(format.decodeAll(event.runId(), event.seq(), text)).containsExactly(event);
        assertThat(format.encodeAll(format.decodeAll(event.runId(), event.seq(), text)))
                .isEqualTo(text);
    }

    @Test
    void theEventsOfAnAppendRoundTripAsOneCompactArrayOfTheSameObjectsWithoutTheirRunAndNumber() throws Exception {
        List<Event> all = oneOfEach();
        Map<String, String> storedTypes = Map.of(
                "java.lang.String",
                "String",
                "java.lang.Integer",
                "Integer",
                "com.acme.Order",
                "com.acme.Order",
                "java.util.List<com.acme.Label>",
                "List<com.acme.Label>");

        String text = format.encodeAll(all);

        assertThat(text)
                .doesNotContain("\n")
                .doesNotContain("\"runId\"")
                .doesNotContain("\"seq\"")
                .doesNotContain(":null")
                .doesNotContain("\"attempt\":1,")
                .startsWith("[{\"type\":")
                .endsWith("}]");
        JsonNode node = json.readTree(text);
        for (int i = 0; i < all.size(); i++) {
            // the mapper's form of the event, less what a record leaves out or writes shorter
            ObjectNode whole = (ObjectNode) json.readTree(format.encode(all.get(i)));
            whole.remove(List.of("runId", "seq"));
            List<String> nulls = new ArrayList<>();
            whole.properties().forEach(p -> {
                if (p.getValue().isNull()) {
                    nulls.add(p.getKey());
                }
                if (p.getValue().has("value") && p.getValue().has("type")) {
                    ((ObjectNode) p.getValue())
                            .put(
                                    "type",
                                    storedTypes.get(p.getValue().get("type").asText()));
                }
            });
            whole.remove(nulls);
            if (whole.has("attempt") && whole.get("attempt").asInt() == 1) {
                whole.remove("attempt");
            }
            Instant at = all.get(i).at();
            long nanos = i == 0
                    ? at.getEpochSecond() * 1_000_000_000L + at.getNano()
                    : Duration.between(all.get(i - 1).at(), at).toNanos();
            whole.set("at", json.readTree(Long.toString(nanos)));
            assertThat(node.get(i)).isEqualTo(whole);
        }
        assertThat(format.decodeAll("r1", 0, text)).containsExactlyElementsOf(all);
        assertThat(format.decodeAll("r1", 0, format.encodeAll(List.of()))).isEmpty();
        // a single event keeps its run and number: the HTTP API and saved histories read it alone
        assertThat(format.encode(all.get(3))).contains("\"runId\":\"r1\",\"seq\":3,");
    }

    @Test
    void theFirstEventsTimeIsStoredAsNanosecondsSinceTheEpochAndEachLaterOneAsTheNanosecondsAfterThePrevious() {
        Instant t = Instant.parse("2026-11-22T08:36:33.288246250Z");
        List<Event> four = List.of(
                new StepScheduled("r1", 4, t, "a", "a"),
                new StepStarted("r1", 5, t.plusNanos(2_694), "a", 1),
                new StepStarted("r1", 6, t.minusSeconds(3).plusNanos(1), "a", 2), // the clock stepped back
                new TimerScheduled("r1", 7, t.plusMillis(5), "nap", "nap", t.plusSeconds(60)));

        String text = format.encodeAll(four);

        assertThat(text)
                .contains(
                        "\"at\":1795336593288246250,",
                        "\"at\":2694,",
                        "\"at\":-3000002693,",
                        "\"at\":3004999999,",
                        "\"fireAt\":\"2026-11-22T08:37:33.288246250Z\"");
        assertThat(format.decodeAll("r1", 4, text)).containsExactlyElementsOf(four);
    }

    @Test
    void timesTooFarApartForANumberOfNanosecondsAreStoredAsText() {
        Instant early = Instant.parse("0001-01-01T00:00:00.000000001Z");
        Instant late = Instant.parse("9999-12-31T23:59:59.999999999Z");
        List<Event> two = List.of(new StepScheduled("r1", 0, early, "a", "a"), new StepStarted("r1", 1, late, "a", 1));

        String text = format.encodeAll(two);

        assertThat(text)
                .contains("\"at\":\"0001-01-01T00:00:00.000000001Z\"", "\"at\":\"9999-12-31T23:59:59.999999999Z\"");
        assertThat(format.decodeAll("r1", 0, text)).containsExactlyElementsOf(two);
    }

    @Test
    void aFirstTimeBeforeTheEpochIsANegativeNumberAndComesBackExactly() {
        Instant before = Instant.parse("1969-12-31T23:59:59.999999999Z");
        List<Event> one = List.of(new TimerFired("r1", 3, before, "t"));

        String text = format.encodeAll(one);

        assertThat(text).isEqualTo("[{\"type\":\"TimerFired\",\"at\":-1,\"timerId\":\"t\"}]");
        assertThat(format.decodeAll("r1", 3, text)).containsExactlyElementsOf(one);
    }

    @Test
    void anAttemptIsLeftOutWhenItIsTheFirstAndReadAsTheFirstWhenMissing() {
        List<Event> three = List.of(
                new StepStarted("r1", 0, T0, "a", 1),
                new StepStarted("r1", 1, T0, "a", 2),
                new StepCompleted("r1", 2, T0, "a", 0, new Payload("1", "java.lang.Integer")));

        String text = format.encodeAll(three);

        assertThat(text)
                .isEqualTo("[{\"type\":\"StepStarted\",\"at\":1893456000000000000,\"stepId\":\"a\"},"
                        + "{\"type\":\"StepStarted\",\"at\":0,\"stepId\":\"a\",\"attempt\":2},"
                        + "{\"type\":\"StepCompleted\",\"at\":0,\"stepId\":\"a\",\"attempt\":0,"
                        + "\"result\":{\"type\":\"Integer\",\"value\":1}}]");
        assertThat(format.decodeAll("r1", 0, text)).containsExactlyElementsOf(three);
        // other numbers are left out when zero, and read as zero when missing
        List<Event> none = List.of(new ParallelStarted("r1", 0, T0, "p", "p", 0));
        assertThat(format.encodeAll(none)).doesNotContain("branches");
        assertThat(format.decodeAll("r1", 0, format.encodeAll(none))).containsExactlyElementsOf(none);
    }

    @Test
    void aRecordWrittenBeforeTheShorterFormsIsReadAsItWasWritten() {
        String older = "[{\"type\":\"StepCompleted\",\"at\":\"2026-11-22T13:36:49.750150195Z\",\"stepId\":\"s2\","
                + "\"attempt\":1,\"result\":{\"type\":\"java.util.Map<java.lang.String,java.lang.Integer>\","
                + "\"value\":{\"i\":2}}},{\"type\":\"StepScheduled\",\"at\":295400,\"stepId\":\"s3\",\"name\":\"s3\"}]";
        Instant at = Instant.parse("2026-11-22T13:36:49.750150195Z");

        List<Event> read = format.decodeAll("r1", 6, older);

        assertThat(read)
                .containsExactly(
                        new StepCompleted(
                                "r1",
                                6,
                                at,
                                "s2",
                                1,
                                new Payload("{\"i\":2}", "java.util.Map<java.lang.String,java.lang.Integer>")),
                        new StepScheduled("r1", 7, at.plusNanos(295_400), "s3", "s3"));
        assertThat(format.encodeAll(read))
                .isEqualTo("[{\"type\":\"StepCompleted\",\"at\":1795354609750150195,"
                        + "\"stepId\":\"s2\",\"result\":{\"type\":\"Map<String,Integer>\",\"value\":{\"i\":2}}},"
                        + "{\"type\":\"StepScheduled\",\"at\":295400,\"stepId\":\"s3\",\"name\":\"s3\"}]");
    }

    @Test
    void aRecordWhoseTimesAreNotInstantsIsRefusedNamingTheEvent() {
        String first = "{\"type\":\"StepScheduled\",\"at\":\"2026-11-22T08:36:33Z\",\"stepId\":\"a\",\"name\":\"a\"}";

        assertThatThrownBy(() -> format.decodeAll(
                        "r1", 0, "[{\"type\":\"StepScheduled\",\"at\":-1.5,\"stepId\":\"a\",\"name\":\"a\"}]"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("run r1")
                .hasMessageContaining("event 0 has at -1.5, not an instant");
        assertThatThrownBy(() -> format.decodeAll(
                        "r1",
                        0,
                        "[" + first + ",{\"type\":\"StepStarted\",\"at\":1.5,\"stepId\":\"a\",\"attempt\":1}]"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("event 1 has at 1.5, not an instant");
        assertThatThrownBy(() -> format.decodeAll(
                        "r1",
                        0,
                        "[" + first + ",{\"type\":\"StepStarted\",\"at\":\"soon\",\"stepId\":\"a\",\"attempt\":1}]"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("event 1 has at soon, not an instant");
        assertThatThrownBy(
                        () -> format.decodeAll(
                                "r1",
                                0,
                                "[" + first
                                        + ",{\"type\":\"StepStarted\",\"at\":99999999999999999999,\"stepId\":\"a\",\"attempt\":1}]"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("event 1 has at 99999999999999999999");
    }

    @Test
    void theRecordGivesTheEventsTheirRunAndNumbersFromItsFirstOn() {
        List<Event> two = List.of(new StepScheduled("r1", 7, T0, "pay", "pay"), new StepStarted("r1", 8, T0, "pay", 1));
        String text = format.encodeAll(two);

        assertThat(format.decodeAll("r1", 7, text)).containsExactlyElementsOf(two);
        assertThat(format.decodeAll("other", 40, text))
                .containsExactly(
                        new StepScheduled("other", 40, T0, "pay", "pay"), new StepStarted("other", 41, T0, "pay", 1));
    }

    @Test
    void aRecordWrittenWithEachEventsRunAndNumberIsReadWhenTheyAgreeAndRefusedWhenNot() {
        List<Event> two = List.of(new StepScheduled("r1", 7, T0, "pay", "pay"), new StepStarted("r1", 8, T0, "pay", 1));
        String whole = "[" + format.encode(two.get(0)) + "," + format.encode(two.get(1)) + "]";

        assertThat(format.decodeAll("r1", 7, whole)).containsExactlyElementsOf(two);
        assertThatThrownBy(() -> format.decodeAll("r2", 7, whole))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("run r2")
                .hasMessageContaining("names run r1");
        assertThatThrownBy(() -> format.decodeAll("r1", 6, whole))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("event 6 is numbered 7");
    }

    @Test
    void eventsOfSeveralRunsOrWithAGapInTheirNumbersAreNotOneRecord() {
        assertThatThrownBy(() -> format.encodeAll(
                        List.of(new StepScheduled("r1", 1, T0, "a", "a"), new StepScheduled("r2", 2, T0, "b", "b"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("seq 2 of run r2");
        assertThatThrownBy(() -> format.encodeAll(
                        List.of(new StepScheduled("r1", 1, T0, "a", "a"), new StepScheduled("r1", 3, T0, "b", "b"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("event 1 is seq 3 of run r1");
    }

    @Test
    void textThatJsonMustEscapeComesBackFromARecordCharacterForCharacter() throws Exception {
        String odd = "q\"b\\s/n\nr\rt\tb\bf\fz\u0000e\u001fé€😀";
        ErrorInfo error = ErrorInfo.of(new IllegalStateException(odd));
        List<Event> three = List.of(
                new StepScheduled("r1", 1, T0, "loop/" + odd, odd),
                new MarkerRecorded("r1", 2, T0, "m", odd, new Payload(json.writeValueAsString(odd), odd)),
                new StepFailed("r1", 3, T0, odd, 2, error));

        String text = format.encodeAll(three);

        assertThat(text).doesNotContain("\n").doesNotContain("\u0000").doesNotContain("\u001f");
        assertThat(json.readTree(text).get(0).get("name").asText()).isEqualTo(odd);
        assertThat(format.decodeAll("r1", 1, text)).containsExactlyElementsOf(three);
        assertThat(json.readValue(
                        ((MarkerRecorded) format.decodeAll("r1", 1, text).get(1))
                                .value()
                                .json(),
                        String.class))
                .isEqualTo(odd);
    }

    @Test
    void payloadNumbersInARecordComeBackAsFromASingleEvent() {
        Payload exact =
                new Payload("{\"total\":12.50,\"big\":1e400,\"n\":12345678901234567890123,\"f\":0.1}", "java.util.Map");
        List<Event> two =
                List.of(new MarkerRecorded("r1", 1, T0, "m", "m", exact), new WorkflowCompleted("r1", 2, T0, exact));

        List<Event> back = format.decodeAll("r1", 1, format.encodeAll(two));

        assertThat(back.get(0)).isEqualTo(format.decode(format.encode(two.get(0))));
        assertThat(back.get(1)).isEqualTo(format.decode(format.encode(two.get(1))));
        assertThat(((MarkerRecorded) back.get(0)).value().json()).contains("12.50", "12345678901234567890123", "0.1");
    }

    @Test
    void aPrettyPrintedPayloadInAnArrayOfEventsDecodesToTheSameValue() throws Exception {
        Payload pretty = new Payload("{\n  \"a\" : 1,\n  \"b\" : [ 2, 3 ]\n}", "java.util.Map");
        List<Event> two =
                List.of(new MarkerRecorded("r1", 1, T0, "m", "m", pretty), new WorkflowCompleted("r1", 2, T0, pretty));

        List<Event> back = format.decodeAll("r1", 1, format.encodeAll(two));

        assertThat(back).hasSize(2);
        assertThat(((WorkflowCompleted) back.get(1)).output().type()).isEqualTo("java.util.Map");
        assertThat(json.readValue(((WorkflowCompleted) back.get(1)).output().json(), Map.class))
                .isEqualTo(Map.of("a", 1, "b", List.of(2, 3)));
    }

    @Test
    void decodingSomethingOtherThanAnArrayOfEventsNamesTheRunAndTheText() {
        assertThatThrownBy(() -> format.decodeAll("r1", 0, "[{\"type\":\"Nope\"}]"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("cannot read events of run r1 [{\"type\":\"Nope\"}]");
        String canceled = "{\"type\":\"WorkflowCanceled\",\"at\":\"2026-11-22T04:58:40Z\"}";
        for (String bad : List.of("[null]", "{", "[{}", "[true]", "[" + canceled + ",1]", "[" + canceled + "] x", "")) {
            assertThatThrownBy(() -> format.decodeAll("r1", 0, bad))
                    .as(bad)
                    .isInstanceOf(SerializationException.class)
                    .hasMessageContaining("run r1");
        }
    }

    @Test
    void anObjectInARecordThatIsNotAnEventOfThisVersionIsRefusedNamingWhatIsWrong() {
        String at = "\"at\":\"2026-11-22T04:58:40Z\"";
        List<String> refusedAndWhy = List.of(
                "[{\"type\":\"Nope\"," + at + "}]",
                "event 3 has type Nope, which is no event type",
                "[{\"type\":7," + at + "}]",
                "event 3 has type 7, which is no event type",
                "[{" + at + ",\"stepId\":\"a\"}]",
                "event 3 has no type",
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
                "[{\"type\":\"TimerFired\",\"timerId\":\"t\"}]",
                "event 3 (TimerFired): at");

        for (int i = 0; i < refusedAndWhy.size(); i += 2) {
            String text = refusedAndWhy.get(i);
            String why = refusedAndWhy.get(i + 1);
            assertThatThrownBy(() -> format.decodeAll("r1", 3, text))
                    .as(text)
                    .isInstanceOf(SerializationException.class)
                    .hasMessageStartingWith("cannot read events of run r1 " + text + ": " + why);
        }
    }

    @Test
    void anObjectWhoseTypeIsNotItsFirstPropertyIsReadAllTheSame() {
        String text = "[{\"stepId\":\"pay\",\"at\":\"2030-01-01T00:00:00Z\",\"type\":\"StepCompleted\",\"attempt\":2,"
                + "\"result\":{\"value\":{\"total\":12.50},\"type\":\"java.util.Map\"}},"
                + "{\"at\":1000,\"type\":\"TimerFired\",\"timerId\":\"t\"}]";

        assertThat(format.decodeAll("r1", 5, text))
                .containsExactly(
                        new StepCompleted("r1", 5, T0, "pay", 2, new Payload("{\"total\":12.50}", "java.util.Map")),
                        new TimerFired("r1", 6, T0.plusNanos(1000), "t"));
    }

    // ---------------------------------------------------------------- the format's version

    @Test
    void aRecordIsWrittenInVersionOneWithoutItsNumber() {
        assertThat(EventFormat.VERSION).isEqualTo(1);
        assertThat(format.encodeAll(oneOfEach())).startsWith("[{\"type\":\"WorkflowStarted\",");
    }

    @Test
    void aRecordWithoutAVersionIsVersionOneAndALeadingOneReadsTheSame() {
        List<Event> all = oneOfEach();
        String bare = format.encodeAll(all);

        assertThat(format.decodeAll("r1", 0, bare)).containsExactlyElementsOf(all);
        assertThat(format.decodeAll("r1", 0, "[1," + bare.substring(1))).containsExactlyElementsOf(all);
        assertThat(format.decodeAll("r1", 0, "[1]")).isEmpty();
    }

    @Test
    void aRecordOfANewerVersionIsRefusedNamingItsVersionAndTheNewestThisReads() {
        String newer = "[2,{\"type\":\"TimerFired\",\"at\":1893456000000000000,\"timerId\":\"t\"}]";

        assertThatThrownBy(() -> format.decodeAll("r1", 3, newer))
                .isInstanceOf(SerializationException.class)
                .hasMessage("cannot read events of run r1 " + newer + ": event format version 2, newer than this"
                        + " Worldflow reads (versions up to 1): a newer release wrote it");
        for (String later : List.of("[2]", "[7,{\"whatever\":[]},3]", "[2147483647,\"?\"]")) {
            assertThatThrownBy(() -> format.decodeAll("r1", 3, later))
                    .as(later)
                    .isInstanceOf(SerializationException.class)
                    .hasMessageContaining("newer than this Worldflow reads (versions up to 1)");
        }
    }

    @Test
    void aLeadingNumberThatIsNoVersionIsRefused() {
        String event = "{\"type\":\"TimerFired\",\"at\":0,\"timerId\":\"t\"}";
        for (String number : List.of("0", "-1", "1.5", "2e0", "3000000000")) {
            String text = "[" + number + "," + event + "]";
            assertThatThrownBy(() -> format.decodeAll("r1", 3, text))
                    .as(text)
                    .isInstanceOf(SerializationException.class)
                    .hasMessage("cannot read events of run r1 " + text + ": it starts with " + number
                            + ", which is no event format version");
        }
    }
}
