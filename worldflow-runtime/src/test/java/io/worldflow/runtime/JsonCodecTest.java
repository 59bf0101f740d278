package io.worldflow.runtime;

import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.RecyclerPool;
import io.worldflow.Payload;
import io.worldflow.SerializationException;
import io.worldflow.event.Event;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.StepStarted;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.format.EventFormat;
import io.worldflow.spi.EventCodec;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonCodecTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final Instant T_NANOS = Instant.parse("2030-01-01T10:20:30.123456789Z");

    private final JsonCodec codec = new JsonCodec();
    private final EventCodec events = codec.eventCodec();

    public record Label(String sku, int weightGrams) {}

    public record Order(
            String id,
            List<Label> items,
            BigDecimal total,
            Instant placedAt,
            Priority priority,
            Optional<String> note) {}

    public enum Priority {
        LOW,
        HIGH
    }

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

    @Test
    void eventsGoThroughTheStoredEventFormat() {
        EventFormat format = new EventFormat();
        List<Event> two = List.of(
                new StepScheduled("r1", 1, T_NANOS, "pay", "pay"),
                new StepStarted("r1", 2, T_NANOS.plusNanos(2_694), "pay", 1));

        assertThat(events).isInstanceOf(EventFormat.class);
        assertThat(codec.encodeEvent(two.get(0))).isEqualTo(format.encode(two.get(0)));
        assertThat(codec.decodeEvent(codec.encodeEvent(two.get(1)))).isEqualTo(two.get(1));
        assertThat(codec.encodeEvents(two)).isEqualTo(format.encodeTimeline(two));
        assertThat(codec.decodeEvents(codec.encodeEvents(two))).containsExactlyElementsOf(two);
        assertThat(events.encodeAll(two)).isEqualTo(format.encodeAll(two));
    }

    @Test
    void decimalsAndStringsInPayloadsSurviveTheEmbeddingExactly() {
        record Money(BigDecimal amount, double rate, long big, String text) {}
        Money money = new Money(
                new BigDecimal("1234567890.1200"),
                0.1,
                Long.MAX_VALUE,
                "quote \" backslash \\ line\n tab\t unicode é \u2028 emoji 😀");
        Payload p = codec.encode(money, "money");

        Event back = events.decode(events.encode(new StepCompleted("r1", 1, T0, "pay", 1, p)));

        Payload restored = ((StepCompleted) back).result();
        assertThat(codec.decode(restored, Money.class, "money")).isEqualTo(money);
    }

    // ---------------------------------------------------------------- payloads

    @Test
    void aRecordRoundTripsByItsRecordedType() {
        Order order = new Order(
                "o-1",
                List.of(new Label("a", 1), new Label("b", 2)),
                new BigDecimal("12.50"),
                T_NANOS,
                Priority.HIGH,
                Optional.of("leave at door"));

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
        assertThat((List<?>) codec.decode(payload(List.of()), null, "empty list"))
                .isEmpty();
        assertThat((Map<?, ?>) codec.decode(payload(Map.of()), null, "empty map"))
                .isEmpty();
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
        assertThat((Duration) codec.decode(payload(Duration.ofMinutes(90)), null, "d"))
                .isEqualTo(Duration.ofMinutes(90));
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
        assertThat((Object) codec.decode(payload(List.of(Shape.CIRCLE)), null, "shapes"))
                .isEqualTo(List.of(Shape.CIRCLE));
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
        assertThat((int[]) codec.decode(payload(new int[] {1, 2}), null, "ints"))
                .containsExactly(1, 2);
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
        record LabelView(String sku) {}

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
    void readsAndWritesOnVirtualThreadsShareParseBuffersInsteadOfAllocatingThemPerThread() throws Exception {
        RecyclerPool<BufferRecycler> pool = codec.payloadMapper().getFactory()._getRecyclerPool();
        // the pool is the JVM's: other tests that ran before may have left recyclers in it
        int before = Math.max(0, pool.pooledCount());
        List<Event> two = List.of(
                new WorkflowStarted("r1", 0, T0, "w", Payload.NULL, null),
                new StepCompleted("r1", 1, T0, "pay", 1, new Payload("\"ok\"", "java.lang.String")));
        for (int i = 0; i < 20; i++) {
            Thread t = Thread.ofVirtual().start(() -> {
                assertThat(events.decodeAll("r1", 0, events.encodeAll(two))).isEqualTo(two);
                codec.payloadMapper().valueToTree(Map.of("k", 1));
            });
            t.join();
        }
        // one thread at a time: the recyclers released by one are taken by the next, so twenty threads add at most
        // the few one of them uses (a per-thread pool, which virtual threads never reuse, reports -1 here)
        assertThat(pool.pooledCount()).isBetween(1, before + 3);
    }
}
