package io.worldflow.format;

import io.worldflow.ErrorInfo;
import io.worldflow.event.Event;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The text of format version 1, byte for byte, as written before the format had a module of its own: stored logs
 * hold it, so a difference here is a change of the stored format, which needs a new format version.
 */
class GoldenTextTest {

    private final EventFormat format = new EventFormat();

    /** What each form writes for the samples, under the labels of {@code golden/version-1.txt}. */
    private Map<String, String> written() {
        Map<String, String> out = new LinkedHashMap<>();
        List<Event> all = Samples.oneOfEach();
        out.put("encodeAll one of each", format.encodeAll(all));
        for (Event e : all) {
            out.put("encodeAll " + e.type(), format.encodeAll(List.of(e)));
        }
        for (Event e : all) {
            out.put("encode " + e.type(), format.encode(e));
        }
        List<Event> edges = Samples.leftOutOrNot();
        out.put("encodeAll left out or not", format.encodeAll(edges));
        for (Event e : edges) {
            out.put("encode " + e.type() + " #" + e.seq(), format.encode(e));
        }
        Samples.typicalAppends().forEach((what, events) -> out.put("encodeAll " + what, format.encodeAll(events)));
        out.put("encodeError", format.encodeError(Samples.ERROR));
        out.put(
                "encodeError without message or trace",
                format.encodeError(new ErrorInfo("com.acme.Oops", null, null, null)));
        out.put("encodeAll added", format.encodeAll(Samples.added()));
        for (Event e : Samples.added()) {
            out.put("encode added " + e.type() + " #" + e.seq(), format.encode(e));
        }
        out.put("encodeAll started by a parent", format.encodeAll(List.of(Samples.startedByParent())));
        out.put("encodeAll added for races", format.encodeAll(Samples.addedForRaces()));
        for (Event e : Samples.addedForRaces()) {
            out.put("encode added " + e.type() + " #" + e.seq(), format.encode(e));
        }
        out.put("encodeAll added for continue-as-new", format.encodeAll(Samples.addedForContinueAsNew()));
        for (Event e : Samples.addedForContinueAsNew()) {
            out.put("encode added for continue-as-new " + e.type(), format.encode(e));
        }
        out.put("encodeAll started by a schedule", format.encodeAll(List.of(Samples.startedBySchedule())));
        out.put("encode started by a schedule", format.encode(Samples.startedBySchedule()));
        out.put("encodeAll added for actors", format.encodeAll(Samples.addedForActors()));
        for (Event e : Samples.addedForActors()) {
            out.put("encode added for actors " + e.type(), format.encode(e));
        }
        out.put("encodeAll added for search", format.encodeAll(Samples.addedForSearch()));
        for (Event e : Samples.addedForSearch()) {
            out.put("encode added for search " + e.type(), format.encode(e));
        }
        return out;
    }

    @Test
    void everyFormWritesTheTextOfVersionOne() throws IOException {
        assertThat(written()).containsExactlyEntriesOf(golden());
        assertThat(format.encodeTimeline(Samples.oneOfEach().subList(0, 4)))
                .isEqualTo(resource("/golden/timeline-version-1.json"));
    }

    @Test
    void theTextOfVersionOneReadsBackAsTheEventsItWasWrittenFrom() throws IOException {
        Map<String, String> golden = golden();
        List<Event> all = Samples.oneOfEach();

        assertThat(format.decodeAll("r1", 0, golden.get("encodeAll one of each")))
                .containsExactlyElementsOf(all);
        for (Event e : all) {
            assertThat(format.decodeAll("r1", e.seq(), golden.get("encodeAll " + e.type())))
                    .containsExactly(e);
            assertThat(format.decode(golden.get("encode " + e.type()))).isEqualTo(e);
        }
        assertThat(format.decodeAll("r1", 0, golden.get("encodeAll left out or not")))
                .containsExactlyElementsOf(Samples.leftOutOrNot());
        Samples.typicalAppends()
                .forEach((what, events) -> assertThat(format.decodeAll(
                                events.getFirst().runId(), events.getFirst().seq(), golden.get("encodeAll " + what)))
                        .as(what)
                        .containsExactlyElementsOf(events));
        assertThat(format.decodeAll("r1", 0, golden.get("encodeAll added")))
                .hasSize(Samples.added().size());
        for (Event e : Samples.added()) {
            assertThat(format.decode(golden.get("encode added " + e.type() + " #" + e.seq())))
                    .isEqualTo(e);
        }
        assertThat(format.decodeAll("r1", 0, golden.get("encodeAll started by a parent")))
                .containsExactly(Samples.startedByParent());
        assertThat(format.decodeAll("r1", 23, golden.get("encodeAll added for races")))
                .containsExactlyElementsOf(Samples.addedForRaces());
        for (Event e : Samples.addedForRaces()) {
            assertThat(format.decode(golden.get("encode added " + e.type() + " #" + e.seq())))
                    .isEqualTo(e);
        }
        assertThat(format.decodeAll("r1", 0, golden.get("encodeAll added for continue-as-new")))
                .containsExactlyElementsOf(Samples.addedForContinueAsNew());
        for (Event e : Samples.addedForContinueAsNew()) {
            assertThat(format.decode(golden.get("encode added for continue-as-new " + e.type())))
                    .isEqualTo(e);
        }
        assertThat(format.decodeAll("r1", 0, golden.get("encodeAll started by a schedule")))
                .containsExactly(Samples.startedBySchedule());
        assertThat(format.decode(golden.get("encode started by a schedule"))).isEqualTo(Samples.startedBySchedule());
        assertThat(format.decodeAll("r1", 0, golden.get("encodeAll added for actors")))
                .containsExactlyElementsOf(Samples.addedForActors());
        for (Event e : Samples.addedForActors()) {
            assertThat(format.decode(golden.get("encode added for actors " + e.type())))
                    .isEqualTo(e);
        }
        assertThat(format.decodeTimeline(resource("/golden/timeline-version-1.json")))
                .containsExactlyElementsOf(all.subList(0, 4));
    }

    @Test
    void aQuickStepIsThreeShortObjectsOfTypeTimeAndFields() {
        List<Event> quickStep = Samples.typicalAppends().get("quick step");

        assertThat(format.encodeAll(quickStep))
                .isEqualTo("[{\"type\":\"StepScheduled\",\"at\":1795336593291664362,"
                        + "\"stepId\":\"charge\",\"name\":\"charge\"},"
                        + "{\"type\":\"StepStarted\",\"at\":2694,\"stepId\":\"charge\"},"
                        + "{\"type\":\"StepCompleted\",\"at\":1308714,\"stepId\":\"charge\","
                        + "\"result\":{\"type\":\"com.acme.Charge\",\"value\":{\"id\":\"ch-1\",\"amount\":12.50}}}]");
    }

    /** The labelled texts of {@code golden/version-1.txt}, in order. */
    private static Map<String, String> golden() throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        Iterator<String> lines = resource("/golden/version-1.txt")
                .lines()
                .filter(l -> !l.startsWith("#"))
                .iterator();
        while (lines.hasNext()) {
            String label = lines.next();
            assertThat(label).startsWith("== ");
            out.put(label.substring(3), lines.next());
        }
        return out;
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = GoldenTextTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
