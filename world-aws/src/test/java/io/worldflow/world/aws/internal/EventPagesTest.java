package io.worldflow.world.aws.internal;

import io.worldflow.Payload;
import io.worldflow.SerializationException;
import io.worldflow.event.Event;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.StepStarted;
import io.worldflow.event.TimerFired;
import io.worldflow.format.LogChain;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.spi.EventCodec;
import io.worldflow.spi.StoredRecord;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.worldflow.world.aws.internal.Attrs.b;
import static io.worldflow.world.aws.internal.Attrs.n;
import static io.worldflow.world.aws.internal.Attrs.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventPagesTest {

    private static final Instant T0 = Instant.parse("2026-11-22T08:36:33.288246250Z");

    private final EventCodec codec = new JsonCodec().eventCodec();

    private static List<Event> quickStep(long first) {
        return List.of(
                new StepScheduled("r1", first, T0, "pay", "pay"),
                new StepStarted("r1", first + 1, T0.plusNanos(2_694), "pay", 1),
                new StepCompleted(
                        "r1", first + 2, T0.plusNanos(1_311_408), "pay", 1, new Payload("\"ok\"", "java.lang.String")));
    }

    /** An item of the first layout: each event's own JSON, one per line. */
    private Map<String, AttributeValue> itemOfTheFirstLayout(List<Event> events) {
        List<String> lines = new ArrayList<>();
        events.forEach(e -> lines.add(codec.encode(e)));
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(EventPages.RUN, s("r1"));
        item.put(EventPages.KEY, s(EventPages.key(events.getLast().seq(), 0)));
        item.put(EventPages.FIRST, n(events.getFirst().seq()));
        item.put(EventPages.LAST, n(events.getLast().seq()));
        item.put(EventPages.PARTS, n(1));
        item.put(EventPages.DATA, b(String.join("\n", lines).getBytes(StandardCharsets.UTF_8)));
        return item;
    }

    /** The items of these events' record, linked as a run's first record. */
    private List<Map<String, AttributeValue>> items(List<Event> events) {
        EventPages.Record record = EventPages.record("r1", events, codec);
        return record.items(record.link(null, null));
    }

    @Test
    void anAppendIsKeptAsItsLogRecordAndReadsBack() {
        List<Event> events = quickStep(4);

        List<Map<String, AttributeValue>> items = items(events);

        assertThat(items).singleElement().satisfies(item -> {
            assertThat(item.get(EventPages.DATA).b().asUtf8String()).isEqualTo(codec.encodeAll(events));
            assertThat(item.get(EventPages.FIRST).n()).isEqualTo("4");
            assertThat(item.get(EventPages.LAST).n()).isEqualTo("6");
        });
        assertThat(new EventPages.Reader(codec).add(items.getFirst())).containsExactlyElementsOf(events);
    }

    @Test
    void itemsOfTheFirstLayoutStillReadAndALogMayHoldBothLayouts() {
        List<Event> earlier = quickStep(1);
        List<Event> later = quickStep(4);
        EventPages.Reader reader = new EventPages.Reader(codec);

        List<Event> read = new ArrayList<>(reader.add(itemOfTheFirstLayout(earlier)));
        read.addAll(reader.add(items(later).getFirst()));

        assertThat(read)
                .containsExactlyElementsOf(List.of(
                        earlier.get(0), earlier.get(1), earlier.get(2), later.get(0), later.get(1), later.get(2)));
    }

    @Test
    void anAppendLargerThanAPartSpansSeveralAndReadsBackWhole() {
        Payload big = new Payload("\"" + "é".repeat(400_000) + "\"", "java.lang.String");
        List<Event> events = List.of(new StepCompleted("r1", 3, T0, "fetch", 1, big), new TimerFired("r1", 4, T0, "t"));

        List<Map<String, AttributeValue>> items = items(events);

        assertThat(items).hasSize(3);
        assertThat(items.get(0)).containsKey(EventPages.LINK);
        assertThat(items.get(1)).doesNotContainKey(EventPages.LINK);
        EventPages.Reader reader = new EventPages.Reader(codec);
        assertThat(reader.add(items.get(0))).isEmpty();
        assertThat(reader.add(items.get(1))).isEmpty();
        assertThat(reader.add(items.get(2))).containsExactlyElementsOf(events);
    }

    @Test
    void aRecordIsAssembledAsStoredWithTheLinkOfItsFirstPart() {
        Payload big = new Payload("\"" + "é".repeat(200_000) + "\"", "java.lang.String");
        List<Event> events = List.of(new StepCompleted("r1", 3, T0, "fetch", 1, big), new TimerFired("r1", 4, T0, "t"));
        EventPages.Record record = EventPages.record("r1", events, codec);
        byte[] link = record.link(null, null);
        EventPages.Assembler assembler = new EventPages.Assembler();

        List<Map<String, AttributeValue>> items = record.items(link);

        assertThat(items).hasSize(2);
        assertThat(assembler.add(items.get(0))).isNull();
        StoredRecord whole = assembler.add(items.get(1));
        assertThat(whole.seq()).isEqualTo(3);
        assertThat(whole.lastSeq()).isEqualTo(4);
        assertThat(whole.text()).isEqualTo(codec.encodeAll(events));
        assertThat(whole.link()).isEqualTo(LogChain.link("r1", null, 3, 4, codec.encodeAll(events)));
    }

    @Test
    void anItemOfTheFirstLayoutIsAssembledAsItsTextWithoutALink() {
        Map<String, AttributeValue> item = itemOfTheFirstLayout(quickStep(1));

        StoredRecord whole = new EventPages.Assembler().add(item);

        assertThat(whole.text()).isEqualTo(item.get(EventPages.DATA).b().asUtf8String());
        assertThat(whole.link()).isNull();
        assertThat(whole.seq()).isEqualTo(1);
        assertThat(whole.lastSeq()).isEqualTo(3);
    }

    @Test
    void anAppendWithoutEventsMakesNoRecord() {
        EventPages.Record none = EventPages.record("r1", List.of(), codec);

        assertThat(none.isEmpty()).isTrue();
        assertThat(none.link(null, null)).isNull();
        assertThat(none.items(null)).isEmpty();
    }

    @Test
    void aPageOfANewerFormatVersionIsRefusedNamingIt() {
        Map<String, AttributeValue> item = new HashMap<>(items(quickStep(1)).getFirst());
        item.put(
                EventPages.DATA,
                b("[2,{\"type\":\"TimerFired\",\"at\":0,\"timerId\":\"t\"}]".getBytes(StandardCharsets.UTF_8)));

        assertThatThrownBy(() -> new EventPages.Reader(codec).add(item))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("run r1")
                .hasMessageContaining("event format version 2");
    }
}
