package io.worldflow;

import io.worldflow.event.SearchAttributesUpdated;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.spi.SearchValues;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SearchAttributesTest {

    static final SearchKey<String> CUSTOMER = SearchKey.forString("customer");
    static final SearchKey<Long> AMOUNT = SearchKey.forLong("amount");

    @Test
    void valuesAreTypedAndReadBackByTheirKeyOnly() {
        Instant due = Instant.parse("2026-03-01T10:15:30.123456789Z");
        SearchAttributes a = SearchAttributes.of(CUSTOMER, "42")
                .with(AMOUNT, 1200L)
                .with(SearchKey.forBoolean("vip"), true)
                .with(SearchKey.forInstant("due"), due);

        assertThat(a.get(CUSTOMER)).isEqualTo("42");
        assertThat(a.get(AMOUNT)).isEqualTo(1200L);
        assertThat(a.get(SearchKey.forLong("customer"))).isNull();
        assertThat(a.get(SearchKey.forString("nobody"))).isNull();
        assertThat(a.typeOf("due")).isEqualTo(SearchKey.Type.INSTANT);
        assertThat(a.names()).containsExactly("amount", "customer", "due", "vip");
        assertThat(a.without("vip").names()).containsExactly("amount", "customer", "due");
        assertThat(a.with(CUSTOMER, "43").get(CUSTOMER)).isEqualTo("43");
        assertThat(SearchAttributes.of(Map.of("customer", "42", "amount", 1200)))
                .isEqualTo(SearchAttributes.of(CUSTOMER, "42").with(AMOUNT, 1200L));
    }

    @Test
    void theStoredFormReadsBackExactly() {
        Instant due = Instant.parse("2026-03-01T10:15:30.123456789Z");
        SearchAttributes a = SearchAttributes.of(CUSTOMER, "a=b: s:x\n✓")
                .with(AMOUNT, Long.MIN_VALUE)
                .with(SearchKey.forBoolean("vip"), false)
                .with(SearchKey.forInstant("due"), due);

        Map<String, String> stored = SearchValues.encode(a);

        assertThat(stored)
                .containsEntry("customer", "s:a=b: s:x\n✓")
                .containsEntry("amount", "l:" + Long.MIN_VALUE)
                .containsEntry("vip", "b:false")
                .containsEntry("due", "t:2026-03-01T10:15:30.123456789Z");
        assertThat(SearchValues.decode(stored)).isEqualTo(a);
        List<String> changes = SearchValues.changes(a, List.of("gone"));
        assertThat(SearchValues.apply(SearchAttributes.of(SearchKey.forString("gone"), "x"), changes))
                .isEqualTo(a);
    }

    @Test
    void anAppendsChangesMergeInOrderAndARemovalIsNull() {
        Instant t = Instant.parse("2026-03-01T00:00:00Z");
        var changes = SearchValues.changes(List.of(
                new SearchAttributesUpdated("r", 1, t, "search#1", List.of("customer=s:1", "vip=b:true")),
                new StepScheduled("r", 2, t, "s#1", "s"),
                new SearchAttributesUpdated("r", 3, t, "search#2", List.of("customer=s:2", "vip"))));

        Map<String, String> expected = new HashMap<>();
        expected.put("customer", "s:2");
        expected.put("vip", null);
        assertThat(changes).isEqualTo(expected);
        assertThat(SearchValues.changes(List.of(new StepScheduled("r", 2, t, "s#1", "s"))))
                .isEmpty();
        assertThat(SearchValues.changes(List.of(new WorkflowStarted(
                        "r",
                        0,
                        t,
                        "w",
                        new Payload("1", null),
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        List.of("customer=s:9")))))
                .containsExactly(Map.entry("customer", "s:9"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1abc", "with space", "a=b", "a:b", "ünicode", "_x"})
    void aBadNameIsRefusedNamingIt(String name) {
        assertThatThrownBy(() -> SearchKey.forString(name))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + name + "'");
        assertThatThrownBy(() -> SearchAttributes.empty().withValue(name, "x"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aNameOfSixtyFiveCharactersIsRefusedAndOneOfSixtyFourIsNot() {
        assertThat(SearchKey.forString("a".repeat(64)).name()).hasSize(64);
        assertThatThrownBy(() -> SearchKey.forString("a".repeat(65))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void valuesOfTheWrongTypeOversizedOrTooManyAreRefusedAndChangeNothing() {
        SearchAttributes a = SearchAttributes.of(CUSTOMER, "42");

        assertThatThrownBy(() -> a.withValue("price", 9.99))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'price'")
                .hasMessageContaining("Double");
        @SuppressWarnings({"unchecked", "rawtypes"})
        SearchKey<Object> raw = (SearchKey) AMOUNT;
        assertThatThrownBy(() -> a.with(raw, "twelve"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'amount'")
                .hasMessageContaining("LONG");
        assertThatThrownBy(() -> a.with(CUSTOMER, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'customer'");
        assertThat(a.with(CUSTOMER, "x".repeat(SearchAttributes.MAX_STRING_LENGTH))
                        .get(CUSTOMER))
                .hasSize(SearchAttributes.MAX_STRING_LENGTH);
        assertThatThrownBy(() -> a.with(CUSTOMER, "x".repeat(SearchAttributes.MAX_STRING_LENGTH + 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("257 chars");
        // Java's count: 200 emoji are 400 chars, and the message says how they were counted
        assertThatThrownBy(() -> a.with(CUSTOMER, "\uD83D\uDE00".repeat(200)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("400 chars long as Java counts them")
                .hasMessageContaining("emoji");
        SearchAttributes full = SearchAttributes.empty();
        for (int i = 0; i < SearchAttributes.MAX_ATTRIBUTES; i++) {
            full = full.with(SearchKey.forLong("n" + i), (long) i);
        }
        SearchAttributes fullNow = full;
        assertThat(fullNow.with(SearchKey.forLong("n0"), 99L).size()).isEqualTo(SearchAttributes.MAX_ATTRIBUTES);
        assertThatThrownBy(() -> fullNow.with(CUSTOMER, "one too many"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most " + SearchAttributes.MAX_ATTRIBUTES);
        assertThat(a).isEqualTo(SearchAttributes.of(CUSTOMER, "42"));
        assertThat(fullNow.size()).isEqualTo(SearchAttributes.MAX_ATTRIBUTES);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "x", "s", "q:1", "l:twelve", "b:yes", "b:TRUE", "t:yesterday", "l:"})
    void aStoredValueThatIsNoneIsRefusedNamingIt(String stored) {
        assertThatThrownBy(() -> SearchValues.decode(stored))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        stored.isEmpty() ? "not a stored" : stored.substring(Math.min(2, stored.length())));
    }

    @Test
    void startOptionsAndQueriesCarryAttributes() {
        StartOptions options =
                StartOptions.id("order-1").withSearchAttribute(CUSTOMER, "42").withQueue("bulk");
        assertThat(options.searchAttributes()).isEqualTo(SearchAttributes.of(CUSTOMER, "42"));
        assertThat(StartOptions.defaults().searchAttributes().isEmpty()).isTrue();

        RunQuery q = RunQuery.all()
                .withAttribute(CUSTOMER, "42")
                .withAttribute(AMOUNT, 7L)
                .withQueue("bulk")
                .withLimit(10)
                .withStatuses(RunStatus.RUNNING);
        assertThat(q.attributes()).isEqualTo(SearchAttributes.of(CUSTOMER, "42").with(AMOUNT, 7L));
        assertThat(q.queue()).isEqualTo("bulk");
        assertThat(q.limit()).isEqualTo(10);
        assertThat(RunQuery.all().attributes().isEmpty()).isTrue();
    }
}
