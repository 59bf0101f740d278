package io.worldflow.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.worldflow.NonDeterministicWorkflowException;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.SearchAttributes;
import io.worldflow.SearchKey;
import io.worldflow.StartOptions;
import io.worldflow.UnknownWorkflowException;
import io.worldflow.event.Event;
import io.worldflow.runtime.internal.SignalTokens;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Every endpoint of the API, against a real server over a local world with a running worker. */
class ApiTest {

    @TempDir
    Path dir;

    TestDashboard t;

    @BeforeEach
    void start() {
        t = new TestDashboard(dir, false);
    }

    @AfterEach
    void stop() {
        t.close();
    }

    private static String q(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void listsRunsNewestFirstWithFiltersAndCursorPagination() {
        t.waitingRun("a-1");
        t.waitingRun("a-2");
        t.waitingRun("b-1");
        t.failedRun("c-1");

        JsonNode first = t.get("/api/runs?limit=3").json();
        assertThat(first.path("runs")).extracting(r -> r.path("runId").asText()).containsExactly("c-1", "b-1", "a-2");
        String cursor = first.path("nextCursor").asText();
        JsonNode second = t.get("/api/runs?limit=3&cursor=" + q(cursor)).json();
        assertThat(second.path("runs"))
                .extracting(r -> r.path("runId").asText())
                .containsExactly("a-1");
        assertThat(second.path("nextCursor").isNull()).isTrue();

        assertThat(ids("/api/runs?status=FAILED")).containsExactly("c-1");
        assertThat(ids("/api/runs?status=waiting,failed")).containsExactly("c-1", "b-1", "a-2", "a-1");
        assertThat(ids("/api/runs?workflow=checkout")).containsExactly("c-1");
        assertThat(ids("/api/runs?idPrefix=a-")).containsExactly("a-2", "a-1");
        Instant now = Instant.now();
        assertThat(ids("/api/runs?createdAfter=" + now.plusSeconds(60))).isEmpty();
        assertThat(ids("/api/runs?createdBefore=" + now.plusSeconds(60) + "&idPrefix=b"))
                .containsExactly("b-1");

        JsonNode c = first.path("runs").get(0);
        assertThat(c.path("workflow").asText()).isEqualTo("checkout");
        assertThat(c.path("status").asText()).isEqualTo("FAILED");
        assertThat(c.path("error").asText()).contains("card declined for c-1");

        JsonNode counts = t.get("/api/counts").json();
        assertThat(counts.path("WAITING").asLong()).isEqualTo(3);
        assertThat(counts.path("FAILED").asLong()).isEqualTo(1);
        assertThat(counts.path("COMPLETED").asLong()).isZero();
        assertThat(t.get("/api/counts?idPrefix=a-").json().path("WAITING").asLong())
                .isEqualTo(2);
    }

    @Test
    void heldRunsAreFoundByTheHeldFilterCountedAndCarryWhyAndSinceWhen() {
        t.waitingRun("w-1");
        t.heldRun("h-1");
        t.post("/api/runs", "{\"workflow\":\"elsewhere.v1\",\"id\":\"u-1\"}");
        RunInfo unknown = t.awaitRun("u-1", RunInfo::isHeld);

        assertThat(ids("/api/runs?held=true")).containsExactly("u-1", "h-1");
        assertThat(ids("/api/runs?held=false")).containsExactly("w-1");
        assertThat(ids("/api/runs?held=true&status=WAITING")).containsExactly("h-1");
        assertThat(ids("/api/runs")).containsExactly("u-1", "h-1", "w-1");

        JsonNode counts = t.get("/api/counts").json();
        assertThat(counts.path("WAITING").asLong()).isEqualTo(2);
        assertThat(counts.path(unknown.status().name()).asLong()).isEqualTo(1);
        assertThat(counts.path("held").asLong()).isEqualTo(2);
        assertThat(t.get("/api/counts?workflow=approval").json().path("held").asLong())
                .isEqualTo(1);
        JsonNode onlyHeld = t.get("/api/counts?held=true").json();
        assertThat(onlyHeld.path("WAITING").asLong()).isEqualTo(1);
        assertThat(onlyHeld.path("held").asLong()).isEqualTo(2);
        JsonNode notHeld = t.get("/api/counts?held=false").json();
        assertThat(notHeld.path("WAITING").asLong()).isEqualTo(1);
        assertThat(notHeld.path("held").asLong()).isZero();

        JsonNode list = t.get("/api/runs").json().path("runs");
        JsonNode h = list.get(1);
        assertThat(h.path("runId").asText()).isEqualTo("h-1");
        assertThat(h.path("status").asText()).isEqualTo("WAITING");
        assertThat(h.path("held").asBoolean()).isTrue();
        assertThat(Instant.parse(h.path("heldSince").asText()))
                .isEqualTo(t.wf.run("h-1").orElseThrow().heldSince());
        assertThat(h.path("heldReason").asText())
                .startsWith(NonDeterministicWorkflowException.class.getName())
                .contains("no longer matches its history");
        JsonNode w = list.get(2);
        assertThat(w.path("held").asBoolean()).isFalse();
        assertThat(w.path("heldSince").isNull()).isTrue();
        assertThat(w.path("heldReason").isNull()).isTrue();

        JsonNode detail = t.get("/api/runs/h-1").json();
        assertThat(detail.path("status").asText()).isEqualTo("WAITING");
        assertThat(detail.path("held").path("type").asText())
                .isEqualTo(NonDeterministicWorkflowException.class.getName());
        assertThat(detail.path("held").path("message").asText()).contains("the code now asks for a timer");
        assertThat(detail.path("held").path("stackTrace").asText())
                .contains("NonDeterministicWorkflowException")
                .contains("at ");
        assertThat(Instant.parse(detail.path("heldSince").asText()))
                .isEqualTo(t.wf.run("h-1").orElseThrow().heldSince());
        JsonNode u = t.get("/api/runs/u-1").json();
        assertThat(u.path("held").path("type").asText()).isEqualTo(UnknownWorkflowException.class.getName());
        assertThat(u.path("heldSince").isTextual()).isTrue();
        JsonNode free = t.get("/api/runs/w-1").json();
        assertThat(free.path("held").isNull()).isTrue();
        assertThat(free.path("heldSince").isNull()).isTrue();
    }

    @Test
    void aHeldFilterOtherThanTrueOrFalseIsRefusedNamingTheParameterAndTheValue() {
        t.heldRun("h-1");

        for (String path : List.of("/api/runs?held=yes", "/api/counts?held=yes", "/api/runs?held=1")) {
            TestDashboard.Reply r = t.get(path);

            assertThat(r.status()).as(path).isEqualTo(400);
            assertThat(r.error()).isEqualTo("bad_request");
            assertThat(r.json().path("message").asText())
                    .as(path)
                    .contains("'held'")
                    .contains(path.substring(path.indexOf('=') + 1));
        }
        assertThat(ids("/api/runs?held=TRUE")).containsExactly("h-1");
    }

    private List<String> ids(String path) {
        TestDashboard.Reply r = t.get(path);
        assertThat(r.status()).as(path + " -> " + r.body()).isEqualTo(200);
        List<String> out = new ArrayList<>();
        r.json().path("runs").forEach(n -> out.add(n.path("runId").asText()));
        return out;
    }

    static final SearchKey<String> CUSTOMER = SearchKey.forString("customer");
    static final SearchKey<Long> AMOUNT = SearchKey.forLong("amount");
    static final SearchKey<Boolean> VIP = SearchKey.forBoolean("vip");
    static final SearchKey<Instant> DUE = SearchKey.forInstant("due");
    static final SearchKey<String> NOTE = SearchKey.forString("note");

    @Test
    void runsAreFoundBySearchAttributesOfEachTypeAloneAndWithStatusAndQueue() {
        Instant due = Instant.parse("2026-03-01T00:00:00Z");
        t.waitingRun(
                "s-1",
                SearchAttributes.of(CUSTOMER, "42")
                        .with(AMOUNT, 1200L)
                        .with(VIP, true)
                        .with(DUE, due)
                        .with(NOTE, "a:b"));
        t.waitingRun(
                "s-2", SearchAttributes.of(CUSTOMER, "43").with(AMOUNT, 1200L).with(VIP, false));
        t.wf.start("checkout", "s-3", StartOptions.id("s-3").withSearchAttribute(CUSTOMER, "42"));
        t.awaitRun("s-3", r -> r.status() == RunStatus.FAILED);
        // no worker serves queue 'other': the run stays pending there
        t.wf.start("approval", "q-1", StartOptions.id("q-1").withQueue("other").withSearchAttribute(CUSTOMER, "42"));
        t.waitingRun("plain-1");

        assertThat(ids("/api/runs?attr=customer:42")).containsExactly("q-1", "s-3", "s-1");
        assertThat(ids("/api/runs?attr=customer:string:42")).containsExactly("q-1", "s-3", "s-1");
        assertThat(ids("/api/runs?attr=" + q("customer:43"))).containsExactly("s-2");
        assertThat(ids("/api/runs?attr=amount:long:1200")).containsExactly("s-2", "s-1");
        assertThat(ids("/api/runs?attr=amount:1200"))
                .as("the string '1200' is not the long 1200")
                .isEmpty();
        assertThat(ids("/api/runs?attr=vip:boolean:true")).containsExactly("s-1");
        assertThat(ids("/api/runs?attr=vip:boolean:FALSE")).containsExactly("s-2");
        assertThat(ids("/api/runs?attr=vip:true"))
                .as("the string 'true' is not the boolean")
                .isEmpty();
        assertThat(ids("/api/runs?attr=due:instant:2026-03-01T00:00:00Z")).containsExactly("s-1");
        assertThat(ids("/api/runs?attr=" + q("due:instant:2026-03-01T01:00:00+01:00")))
                .as("the same instant written with an offset")
                .containsExactly("s-1");
        assertThat(ids("/api/runs?attr=due:instant:2026-03-01T00:00:01Z")).isEmpty();
        assertThat(ids("/api/runs?attr=note:string:a:b")).containsExactly("s-1");
        assertThat(ids("/api/runs?attr=customer:42&attr=amount:long:1200")).containsExactly("s-1");
        assertThat(ids("/api/runs?attr=customer:42&attr=customer:string:42"))
                .as("one name twice with one value")
                .containsExactly("q-1", "s-3", "s-1");
        assertThat(ids("/api/runs?attr=customer:43&attr=vip:boolean:true")).isEmpty();
        assertThat(ids("/api/runs?attr=customer:42&status=FAILED")).containsExactly("s-3");
        assertThat(ids("/api/runs?attr=customer:42&status=waiting,pending")).containsExactly("q-1", "s-1");
        assertThat(ids("/api/runs?attr=customer:42&workflow=approval&limit=1")).containsExactly("q-1");
        assertThat(ids("/api/runs?queue=other")).containsExactly("q-1");
        assertThat(ids("/api/runs?queue=other&attr=customer:43")).isEmpty();
        assertThat(ids("/api/runs?queue=default&attr=customer:42")).containsExactly("s-3", "s-1");
        assertThat(ids("/api/runs?queue=nowhere")).isEmpty();
        assertThat(ids("/api/runs?attr=")).as("an empty filter is none").hasSize(5);

        JsonNode counts = t.get("/api/counts?attr=customer:42").json();
        assertThat(counts.path("WAITING").asLong()).isEqualTo(1);
        assertThat(counts.path("FAILED").asLong()).isEqualTo(1);
        assertThat(counts.path("PENDING").asLong()).isEqualTo(1);
        JsonNode queued =
                t.get("/api/counts?queue=default&attr=amount:long:1200").json();
        assertThat(queued.path("WAITING").asLong()).isEqualTo(2);
        assertThat(queued.path("PENDING").asLong()).isZero();

        // a row shows the run's attributes, each a JSON value of its type
        JsonNode row = t.get("/api/runs?idPrefix=s-1").json().path("runs").get(0);
        JsonNode attributes = row.path("searchAttributes");
        assertThat(attributes.path("customer").isTextual()).isTrue();
        assertThat(attributes.path("customer").asText()).isEqualTo("42");
        assertThat(attributes.path("amount").isIntegralNumber()).isTrue();
        assertThat(attributes.path("amount").asLong()).isEqualTo(1200);
        assertThat(attributes.path("vip").isBoolean()).isTrue();
        assertThat(attributes.path("vip").asBoolean()).isTrue();
        assertThat(attributes.path("due").asText()).isEqualTo("2026-03-01T00:00:00Z");
        assertThat(attributes.path("note").asText()).isEqualTo("a:b");
        assertThat(t.get("/api/runs?idPrefix=plain-1")
                        .json()
                        .path("runs")
                        .get(0)
                        .path("searchAttributes"))
                .as("a run without attributes has an empty object")
                .isEmpty();

        // the run's page: the same, and the type of each, which tells the instant from a string
        JsonNode detail = t.get("/api/runs/s-1").json();
        assertThat(detail.path("searchAttributes")).isEqualTo(attributes);
        List<String> names = new ArrayList<>();
        detail.path("searchAttributes").fieldNames().forEachRemaining(names::add);
        assertThat(names).containsExactly("amount", "customer", "due", "note", "vip");
        JsonNode types = detail.path("searchAttributeTypes");
        assertThat(types.path("customer").asText()).isEqualTo("string");
        assertThat(types.path("amount").asText()).isEqualTo("long");
        assertThat(types.path("vip").asText()).isEqualTo("boolean");
        assertThat(types.path("due").asText()).isEqualTo("instant");
        assertThat(t.get("/api/runs/q-1").json().path("queue").asText()).isEqualTo("other");
    }

    @Test
    void aRunsPageAndTimelineShowTheSearchAttributesItStartedWithAndEachChangeItsWorkflowMade() {
        t.taggedRun("t-1", SearchAttributes.of(CUSTOMER, "42").with(VIP, true));

        JsonNode detail = t.get("/api/runs/t-1").json();
        assertThat(detail.path("searchAttributes").path("customer").asText()).isEqualTo("42");
        assertThat(detail.path("searchAttributes").path("stage").asText()).isEqualTo("packed");
        assertThat(detail.path("searchAttributes").has("vip"))
                .as("removed by the workflow")
                .isFalse();
        assertThat(ids("/api/runs?attr=stage:packed&attr=customer:42")).containsExactly("t-1");
        assertThat(ids("/api/runs?attr=vip:boolean:true")).isEmpty();

        JsonNode events = t.get("/api/runs/t-1/events").json();
        JsonNode started = events.get(0);
        assertThat(started.path("type").asText()).isEqualTo("WorkflowStarted");
        assertThat(started.path("searchAttributes").path("customer").asText()).isEqualTo("42");
        assertThat(started.path("searchAttributes").path("vip").isBoolean()).isTrue();
        assertThat(started.path("searchAttributeTypes").path("customer").asText())
                .isEqualTo("string");
        assertThat(started.path("searchAttributeTypes").path("vip").asText()).isEqualTo("boolean");
        List<JsonNode> updates = new ArrayList<>();
        events.forEach(e -> {
            if (e.path("type").asText().equals("SearchAttributesUpdated")) {
                updates.add(e);
            }
        });
        assertThat(updates).hasSize(2);
        assertThat(updates.get(0).path("attributes").path("stage").asText()).isEqualTo("packed");
        assertThat(updates.get(0).path("attributeTypes").path("stage").asText()).isEqualTo("string");
        assertThat(updates.get(1).path("attributes").has("vip")).isTrue();
        assertThat(updates.get(1).path("attributes").path("vip").isNull())
                .as("removed")
                .isTrue();
        assertThat(updates.get(1).path("attributeTypes")).isEmpty();
        assertThat(updates.get(0).path("updateId").asText()).isNotBlank();

        // the saved history keeps the entries as stored, and reads back as the log
        String codec = t.get("/api/runs/t-1/events?format=codec").body();
        assertThat(codec).contains("customer=s:42", "vip=b:true", "stage=s:packed");
        assertThat(t.wf.codec().decodeEvents(codec)).isEqualTo(t.wf.events("t-1"));
        // a run without attributes carries none in its timeline
        t.waitingRun("plain-1");
        assertThat(t.get("/api/runs/plain-1/events").json().get(0).has("searchAttributeTypes"))
                .isFalse();
    }

    @Test
    void aRunShowsTheTraceItsFirstEventRecordsAndARunStartedUntracedNone() {
        t.tracedRun("traced-1", TestDashboard.TRACE_PARENT);
        t.tracedRun("odd-1", "00-" + "0".repeat(32) + "-00f067aa0ba902b7-01");
        t.waitingRun("plain-1");

        JsonNode traced = t.get("/api/runs/traced-1").json();
        assertThat(traced.path("traceId").asText()).isEqualTo(TestDashboard.TRACE_ID);
        assertThat(traced.path("traceParent").asText()).isEqualTo(TestDashboard.TRACE_PARENT);
        assertThat(traced.path("traceState").asText()).isEqualTo("vendor=opaque");
        // the timeline keeps the context as the first event recorded it
        JsonNode started = t.get("/api/runs/traced-1/events").json().get(0);
        assertThat(started.path("type").asText()).isEqualTo("WorkflowStarted");
        assertThat(started.path("traceParent").asText()).isEqualTo(TestDashboard.TRACE_PARENT);

        // an all-zero trace id names no trace: the context is shown as recorded, with no id
        JsonNode odd = t.get("/api/runs/odd-1").json();
        assertThat(odd.path("traceId").isNull()).isTrue();
        assertThat(odd.path("traceParent").asText()).startsWith("00-000");

        JsonNode plain = t.get("/api/runs/plain-1").json();
        assertThat(plain.has("traceId")).isTrue();
        assertThat(plain.path("traceId").isNull()).isTrue();
        assertThat(plain.path("traceParent").isNull()).isTrue();
    }

    @Test
    void runsAreFoundByWhenTheyLastChanged() {
        t.waitingRun("old-1");
        Instant oldUpdated = t.wf.run("old-1").orElseThrow().updatedAt();
        Instant mark = oldUpdated.plus(1, ChronoUnit.MILLIS);
        awaitClockPast(mark);
        t.waitingRun("new-1");

        assertThat(ids("/api/runs?updatedAfter=" + mark)).containsExactly("new-1");
        assertThat(ids("/api/runs?updatedBefore=" + mark)).containsExactly("old-1");
        assertThat(ids("/api/runs?updatedAfter=" + oldUpdated))
                .as("the bound is at or after")
                .containsExactly("new-1", "old-1");
        assertThat(ids("/api/runs?updatedAfter=" + oldUpdated + "&updatedBefore=" + mark))
                .containsExactly("old-1");
        assertThat(t.get("/api/counts?updatedAfter=" + mark)
                        .json()
                        .path("WAITING")
                        .asLong())
                .isEqualTo(1);

        // the old run changes: now it was updated after the mark, though created before it
        t.wf.signal("old-1", "approval", Map.of("by", "ana"));
        t.awaitRun("old-1", r -> r.status() == RunStatus.COMPLETED);

        assertThat(ids("/api/runs?updatedAfter=" + mark)).containsExactly("new-1", "old-1");
        assertThat(ids("/api/runs?updatedBefore=" + mark)).isEmpty();
        assertThat(ids("/api/runs?updatedAfter=" + mark + "&createdBefore=" + mark))
                .containsExactly("old-1");
        assertThat(ids("/api/runs?updatedAfter=" + mark + "&status=COMPLETED&queue=default"))
                .containsExactly("old-1");
    }

    /** Waits until the wall clock, which the world stamps runs with, has passed {@code t}. */
    private static void awaitClockPast(Instant t) {
        while (!Instant.now().isAfter(t)) {
            Thread.onSpinWait();
        }
    }

    @Test
    void aRunShowsItsInputStepsWaitsErrorAndStackTrace() {
        t.waitingRun("w-1");
        t.failedRun("f-1");

        JsonNode w = t.get("/api/runs/w-1").json();
        assertThat(w.path("status").asText()).isEqualTo("WAITING");
        assertThat(w.path("input").asText()).isEqualTo("w-1");
        assertThat(w.path("output").isNull()).isTrue();
        assertThat(w.path("signalWaits"))
                .singleElement()
                .satisfies(s -> assertThat(s.path("name").asText()).isEqualTo("approval"));
        assertThat(w.path("steps")).singleElement().satisfies(s -> {
            assertThat(s.path("stepId").asText()).isEqualTo("prepare");
            assertThat(s.path("state").asText()).isEqualTo("completed");
            assertThat(s.path("attempts").asInt()).isEqualTo(1);
        });

        JsonNode f = t.get("/api/runs/f-1").json();
        assertThat(f.path("status").asText()).isEqualTo("FAILED");
        assertThat(f.path("error").path("message").asText()).contains("card declined for f-1");
        assertThat(f.path("error").path("stackTrace").asText())
                .contains("IllegalStateException")
                .contains("at ");
        assertThat(f.path("steps").get(0).path("state").asText()).isEqualTo("failed");
    }

    @Test
    void theTimelineIsExportedInOrderInTheFormatTheCodecReadsBack() {
        t.waitingRun("w-1");

        TestDashboard.Reply r = t.get("/api/runs/w-1/events?format=codec");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.raw().headers().firstValue("Content-Type"))
                .hasValueSatisfying(v -> assertThat(v).contains("application/json"));
        List<Event> decoded = t.wf.codec().decodeEvents(r.body());
        assertThat(decoded).isEqualTo(t.wf.events("w-1"));
        assertThat(decoded)
                .extracting(Event::type)
                .startsWith("WorkflowStarted", "StepScheduled", "StepStarted", "StepCompleted", "SignalRequested");

        TestDashboard.Reply download = t.get("/api/runs/w-1/events?download=1");
        assertThat(download.raw().headers().firstValue("Content-Disposition"))
                .hasValue("attachment; filename=\"w-1-events.json\"");
        assertThat(t.get("/api/runs/w-1/events?download=1&format=codec")
                        .raw()
                        .headers()
                        .firstValue("Content-Disposition"))
                .hasValue("attachment; filename=\"w-1-history.json\"");
        assertThat(t.get("/api/runs/ghost/events").status()).isEqualTo(404);
    }

    @Test
    void theTimelineShowsEachPayloadAsTheUsersValueWithItsTypeBesideIt() throws Exception {
        t.completedOrder("o-1", new TestDashboard.Order("A-1", 2));

        TestDashboard.Reply r = t.get("/api/runs/o-1/events");

        assertThat(r.status()).isEqualTo(200);
        JsonNode events = r.json();
        assertThat(events)
                .extracting(e -> e.path("type").asText())
                .containsExactly(
                        "WorkflowStarted", "StepScheduled", "StepStarted", "StepCompleted", "WorkflowCompleted");
        JsonNode started = events.get(0);
        assertThat(started.path("input")).isEqualTo(new ObjectMapper().readTree("{\"sku\":\"A-1\",\"quantity\":2}"));
        assertThat(started.path("inputType").asText())
                .isEqualTo(TestDashboard.Order.class.getName())
                .contains("$");
        assertThat(events.get(3).path("result").path("sku").asText()).isEqualTo("A-1");
        assertThat(events.get(3).path("resultType").asText()).isEqualTo(TestDashboard.Receipt.class.getName());
        assertThat(events.get(4).path("output").path("sku").asText()).isEqualTo("A-1");
        // no envelope wraps a value, and the value's JSON is as stored (12.50, not 12.5)
        assertThat(r.body())
                .doesNotContainPattern("\"type\"\\s*:\\s*\"[^\"]*\\$")
                .doesNotContain("\"value\"")
                .contains("12.50");

        // nothing is lost: the codec's form, each {"type": t, "value": v} made v with t beside it, is what was shown
        JsonNode codec = t.get("/api/runs/o-1/events?format=codec").json();
        assertThat(codec).hasSameSizeAs(events);
        for (int i = 0; i < codec.size(); i++) {
            ObjectNode expected = new ObjectMapper().createObjectNode();
            codec.get(i).properties().forEach(f -> {
                JsonNode v = f.getValue();
                if (v.isObject() && v.has("value")) {
                    expected.set(f.getKey(), v.get("value"));
                    if (v.has("type")) {
                        expected.set(f.getKey() + "Type", v.get("type"));
                    }
                } else {
                    expected.set(f.getKey(), v);
                }
            });
            assertThat(events.get(i)).as("event %d", i).isEqualTo(expected);
        }
    }

    @Test
    void startIsIdempotentByIdAndSignalCompletesTheRun() {
        TestDashboard.Reply created =
                t.post("/api/runs", "{\"workflow\":\"approval\",\"input\":\"api-1\",\"id\":\"api-1\"}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.json().path("created").asBoolean()).isTrue();
        TestDashboard.Reply again =
                t.post("/api/runs", "{\"workflow\":\"approval\",\"input\":\"other\",\"id\":\"api-1\"}");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().path("created").asBoolean()).isFalse();
        t.awaitRun("api-1", r -> r.status() == RunStatus.WAITING);

        TestDashboard.Reply signaled = t.post("/api/runs/api-1/signals/approval", "{\"by\":\"ana\"}");
        assertThat(signaled.status()).as(signaled.body()).isEqualTo(202);

        t.awaitRun("api-1", r -> r.status() == RunStatus.COMPLETED);
        assertThat(t.get("/api/runs/api-1").json().path("output").asText())
                .isEqualTo("prepared api-1, approved by ana");
    }

    @Test
    void aStartOnAQueueWhoseNameHoldsASpaceIsRefusedAndCreatesNothing() {
        TestDashboard.Reply refused = t.post(
                "/api/runs", "{\"workflow\":\"approval\",\"input\":\"q\",\"id\":\"bad-q\",\"queue\":\"bad name\"}");

        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        assertThat(refused.json().path("message").asText()).contains("queue 'bad name' has a space at index 3");
        assertThat(t.wf.run("bad-q")).isEmpty();
    }

    @Test
    void aRunStartedWithSearchAttributesIsFoundByThem() {
        TestDashboard.Reply created = t.post(
                "/api/runs",
                "{\"workflow\":\"elsewhere.v1\",\"id\":\"sa-start\",\"input\":1,"
                        + "\"searchAttributes\":[\"customer:77\",\"amount:long:1200\",\"vip:boolean:true\"]}");

        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.json().path("searchAttributes").path("amount").asLong())
                .isEqualTo(1200);
        assertThat(t.wf.run("sa-start").orElseThrow().searchAttributes())
                .isEqualTo(SearchAttributes.of(SearchKey.forString("customer"), "77")
                        .with(SearchKey.forLong("amount"), 1200L)
                        .with(SearchKey.forBoolean("vip"), true));
        assertThat(ids("/api/runs?attr=customer:77&attr=amount:long:1200")).containsExactly("sa-start");
    }

    @Test
    void aRunOfAWorkflowThisProcessDoesNotHaveIsStoredForAWorkerThatHasIt() {
        TestDashboard.Reply created =
                t.post("/api/runs", "{\"workflow\":\"elsewhere.v1\",\"input\":{\"n\":1},\"id\":\"e-1\"}");

        assertThat(created.status()).isEqualTo(201);
        assertThat(t.wf.run("e-1").orElseThrow().workflow()).isEqualTo("elsewhere.v1");
        assertThat(t.get("/api/runs/e-1").json().path("input").path("n").asInt())
                .isEqualTo(1);
    }

    @Test
    void cancelEndsAWaitingRun() {
        t.waitingRun("w-1");

        TestDashboard.Reply r = t.post("/api/runs/w-1/cancel", "{\"reason\":\"customer left\"}");

        assertThat(r.status()).isEqualTo(202);
        t.awaitRun("w-1", i -> i.status() == RunStatus.CANCELED);
        assertThat(t.post("/api/runs/w-1/cancel", "{}").error()).isEqualTo("run_finished");
    }

    @Test
    void terminateEndsAWaitingRunAndItsTimelineSaysSo() {
        t.waitingRun("w-2");

        TestDashboard.Reply r = t.post("/api/runs/w-2/terminate", "{\"reason\":\"stuck order\"}");

        assertThat(r.status()).isEqualTo(202);
        t.awaitRun("w-2", i -> i.status() == RunStatus.CANCELED);
        JsonNode requested = null;
        for (JsonNode e : t.get("/api/runs/w-2/events").json()) {
            if (e.path("type").asText().equals("WorkflowCancelRequested")) {
                requested = e;
            }
        }
        assertThat(requested).as("the cancellation's event").isNotNull();
        assertThat(requested.path("terminate").asBoolean()).isTrue();
        assertThat(requested.path("reason").asText()).isEqualTo("stuck order");
        assertThat(t.post("/api/runs/w-2/terminate", "{}").error()).isEqualTo("run_finished");
        assertThat(t.post("/api/runs/nobody/terminate", "{}").status()).isEqualTo(404);
    }

    @Test
    void retryRunsTheFailedStepAgain() {
        t.failedRun("f-1");
        t.cardWorks.set(true);

        TestDashboard.Reply r = t.post("/api/runs/f-1/retry", "{\"reason\":\"card replaced\"}");

        assertThat(r.status()).as(r.body()).isEqualTo(202);
        t.awaitRun("f-1", i -> i.status() == RunStatus.COMPLETED);
        assertThat(t.get("/api/runs/f-1").json().path("output").asText()).isEqualTo("charged f-1");
        TestDashboard.Reply twice = t.post("/api/runs/f-1/retry", "{}");
        assertThat(twice.status()).isEqualTo(409);
        assertThat(twice.body()).contains("only a FAILED run can be retried");
    }

    @Test
    void aSignedUrlDeliversItsSignalWithoutLogin() {
        t.waitingRun("w-1");
        JsonNode made = t.post("/api/runs/w-1/signal-urls", "{\"name\":\"approval\",\"ttlSeconds\":600}")
                .json();
        String url = made.path("url").asText();
        assertThat(url).startsWith(t.dashboard.url() + "/signals/w-1/approval?token=");

        TestDashboard.Reply r = t.send(
                HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString("{\"by\":\"url\"}")));

        assertThat(r.status()).as(r.body()).isEqualTo(202);
        assertThat(r.json().path("delivered").asBoolean()).isTrue();
        t.awaitRun("w-1", i -> i.status() == RunStatus.COMPLETED);
        assertThat(t.wf.run("w-1").orElseThrow().output().json()).contains("approved by url");
        // the log names the URL by its token's id: the start of its MAC, not enough to use it
        String mac = url.substring(url.lastIndexOf('.') + 1);
        assertThat(t.wf.events("w-1"))
                .filteredOn(e -> e instanceof io.worldflow.event.SignalReceived)
                .singleElement()
                .satisfies(e -> assertThat(((io.worldflow.event.SignalReceived) e).actor())
                        .isEqualTo("signal-url:" + mac.substring(0, 12)));
    }

    @Test
    void aSingleUseUrlDeliversOnce() {
        t.waitingRun("w-1");
        String url = t.post("/api/runs/w-1/signal-urls", "{\"name\":\"note\",\"singleUse\":true}")
                .json()
                .path("url")
                .asText();

        TestDashboard.Reply first =
                t.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString("1")));
        TestDashboard.Reply second =
                t.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString("2")));

        assertThat(first.status()).isEqualTo(202);
        assertThat(second.status()).isEqualTo(409);
        assertThat(second.error()).isEqualTo("token_used");
        assertThat(t.wf.world().signals().pending("w-1"))
                .singleElement()
                .satisfies(s -> assertThat(s.payload().json()).isEqualTo("1"));
    }

    @Test
    void aRevokedUrlIsRefusedFromThenOnAndTheRunShowsWhoRevokedItWhileItsOtherUrlsWork() {
        t.waitingRun("w-1");
        t.waitingRun("w-2");
        String url = t.post("/api/runs/w-1/signal-urls", "{\"name\":\"approval\"}")
                .json()
                .path("url")
                .asText();
        String kept = t.post("/api/runs/w-1/signal-urls", "{\"name\":\"note\"}")
                .json()
                .path("url")
                .asText();
        // issued alike, for someone else: a URL of its own, which the revocation below leaves working
        String twin = t.post("/api/runs/w-1/signal-urls", "{\"name\":\"approval\"}")
                .json()
                .path("url")
                .asText();
        assertThat(twin).isNotEqualTo(url);
        String other = t.post("/api/runs/w-2/signal-urls", "{\"name\":\"approval\"}")
                .json()
                .path("url")
                .asText();

        // bad input first: each refused, nothing revoked
        assertThat(t.post("/api/runs/w-1/signal-urls/revoke", "{\"url\":\"" + other + "\"}")
                        .status())
                .as("another run's URL")
                .isEqualTo(400);
        String forged = url.substring(0, url.length() - 3) + (url.endsWith("AAA") ? "BBB" : "AAA");
        TestDashboard.Reply bad = t.post("/api/runs/w-1/signal-urls/revoke", "{\"url\":\"" + forged + "\"}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body()).contains("not a signal URL signed");
        assertThat(t.post("/api/runs/w-1/signal-urls/revoke", "{}").status()).isEqualTo(400);
        assertThat(t.wf.world().signals().revokedUrls("w-1")).isEmpty();
        assertThat(t.wf.world().signals().revokedUrls("w-2")).isEmpty();

        TestDashboard.Reply revoked = t.post("/api/runs/w-1/signal-urls/revoke", "{\"url\":\"" + url + "\"}");

        assertThat(revoked.status()).as(revoked.body()).isEqualTo(200);
        String mac = url.substring(url.lastIndexOf('.') + 1);
        assertThat(revoked.json().path("tokenId").asText()).isEqualTo(mac.substring(0, 12));
        TestDashboard.Reply refused = t.send(
                HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString("{\"by\":\"url\"}")));
        assertThat(refused.status()).isEqualTo(410);
        assertThat(refused.error()).isEqualTo("revoked_token");
        assertThat(t.wf.world().signals().pending("w-1")).isEmpty();
        JsonNode run = t.get("/api/runs/w-1").json();
        assertThat(run.path("revokedSignalUrls")).singleElement().satisfies(u -> {
            assertThat(u.path("tokenId").asText()).isEqualTo(mac.substring(0, 12));
            assertThat(u.path("actor").asText()).isEqualTo("dashboard:admin");
        });
        assertThat(t.send(HttpRequest.newBuilder(URI.create(kept)).POST(HttpRequest.BodyPublishers.ofString("1")))
                        .status())
                .as("the run's other URL")
                .isEqualTo(202);
        assertThat(t.send(HttpRequest.newBuilder(URI.create(twin))
                                .POST(HttpRequest.BodyPublishers.ofString("{\"by\":\"twin\"}")))
                        .status())
                .as("a URL issued alike")
                .isEqualTo(202);
        assertThat(t.send(HttpRequest.newBuilder(URI.create(other))
                                .POST(HttpRequest.BodyPublishers.ofString("{\"by\":\"other\"}")))
                        .status())
                .as("another run's URL")
                .isEqualTo(202);
    }

    @Test
    void aSignalUrlForARunThatContinuedAsNewReachesTheNewestRunOfItsChain() {
        t.wf.start("relay", 1, StartOptions.id("relay-1"));
        t.awaitRun("relay-1~2", r -> r.status() == RunStatus.WAITING);
        JsonNode first = t.get("/api/runs/relay-1").json();
        assertThat(first.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(first.path("continuedAs").asText()).isEqualTo("relay-1~2");
        assertThat(first.path("newestOfChain").path("runId").asText()).isEqualTo("relay-1~2");
        assertThat(first.path("newestOfChain").path("status").asText()).isEqualTo("WAITING");
        assertThat(t.get("/api/runs/relay-1~2").json().path("continuedFrom").asText())
                .isEqualTo("relay-1");

        TestDashboard.Reply made = t.post("/api/runs/relay-1/signal-urls", "{\"name\":\"go\"}");
        assertThat(made.status()).as(made.body()).isEqualTo(201);
        String url = made.json().path("url").asText();
        assertThat(t.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString("\"now\"")))
                        .status())
                .isEqualTo(202);
        assertThat(t.awaitRun("relay-1~2", r -> r.status() == RunStatus.COMPLETED)
                        .output()
                        .json())
                .isEqualTo("\"go now\"");
        assertThat(t.post("/api/runs/relay-1/signal-urls", "{\"name\":\"go\"}").status())
                .as("the chain has ended")
                .isEqualTo(409);
    }

    @Test
    void liveUpdatesStreamNewEventsOfARun() throws Exception {
        t.waitingRun("w-1");
        HttpRequest request = HttpRequest.newBuilder(t.uri("/api/runs/w-1/live"))
                .header("Authorization", "Bearer " + TestDashboard.TOKEN)
                .header("Accept", "text/event-stream")
                .GET()
                .build();
        var response = t.http.send(request, java.net.http.HttpResponse.BodyHandlers.ofLines());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(v -> assertThat(v).contains("text/event-stream"));
        var lines = response.body().iterator();
        List<String> seen = new ArrayList<>();
        boolean signaled = false;
        while (lines.hasNext()) {
            String line = lines.next();
            seen.add(line);
            if (!signaled && line.startsWith("event: run")) {
                t.wf.signal("w-1", "approval", java.util.Map.of("by", "live"));
                signaled = true;
            }
            if (line.contains("WorkflowCompleted")) {
                break;
            }
        }
        response.body().close();
        String all = String.join("\n", seen);
        assertThat(all)
                .contains("event: events")
                .contains("WorkflowStarted")
                .contains("SignalReceived")
                .contains("WorkflowCompleted");
    }

    @Test
    void theOpenApiDocumentDescribesEveryRoute() {
        TestDashboard.Reply r =
                t.send(HttpRequest.newBuilder(t.uri("/api/openapi.json")).GET());

        assertThat(r.status()).isEqualTo(200);
        JsonNode doc = r.json();
        assertThat(doc.path("openapi").asText()).startsWith("3.1");
        List<String> paths = new ArrayList<>();
        doc.path("paths").fieldNames().forEachRemaining(paths::add);
        assertThat(paths)
                .containsExactlyInAnyOrder(
                        "/api/runs",
                        "/api/counts",
                        "/api/workflows",
                        "/api/runs/{runId}",
                        "/api/runs/{runId}/events",
                        "/api/runs/{runId}/chain",
                        "/api/runs/{runId}/chain/export",
                        "/api/runs/{runId}/replay",
                        "/api/runs/{runId}/live",
                        "/api/live/runs",
                        "/api/runs/{runId}/cancel",
                        "/api/runs/{runId}/terminate",
                        "/api/runs/{runId}/retry",
                        "/api/runs/{runId}/signals/{name}",
                        "/api/runs/{runId}/signal-urls",
                        "/api/runs/{runId}/signal-urls/revoke",
                        "/api/schedules",
                        "/api/schedules/{scheduleId}",
                        "/api/schedules/{scheduleId}/pause",
                        "/api/schedules/{scheduleId}/resume",
                        "/api/schedules/{scheduleId}/trigger",
                        "/api/queues",
                        "/api/queues/{name}",
                        "/api/metrics/history",
                        "/metrics",
                        "/signals/{runId}/{name}",
                        "/api/session",
                        "/api/openapi.json");
    }

    @Test
    void theOpenApiDocumentDescribesTheSearchFiltersAndTheRunsAttributes() {
        JsonNode doc =
                t.send(HttpRequest.newBuilder(t.uri("/api/openapi.json")).GET()).json();

        for (String path : List.of("/api/runs", "/api/counts", "/api/live/runs")) {
            List<String> params = new ArrayList<>();
            doc.path("paths")
                    .path(path)
                    .path("get")
                    .path("parameters")
                    .forEach(p -> params.add(p.path("name").asText()));
            assertThat(params).as(path).contains("attr", "queue", "updatedAfter", "updatedBefore");
        }
        JsonNode schemas = doc.path("components").path("schemas");
        assertThat(schemas.path("RunSummary").path("properties").has("searchAttributes"))
                .isTrue();
        assertThat(schemas.path("RunDetail").path("properties").has("searchAttributes"))
                .isTrue();
        assertThat(schemas.path("RunDetail").path("properties").has("searchAttributeTypes"))
                .isTrue();
        assertThat(schemas.path("Event").path("description").asText()).contains("SearchAttributesUpdated");
    }

    @Test
    void responsesCarryHeadersThatKeepPagesFromRunningForeignCode() {
        TestDashboard.Reply page = t.send(HttpRequest.newBuilder(t.uri("/")).GET());

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("<title>Worldflow");
        assertThat(page.raw().headers().firstValue("Content-Security-Policy"))
                .hasValueSatisfying(
                        v -> assertThat(v).contains("script-src 'self'").doesNotContain("unsafe-inline"));
        assertThat(page.raw().headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    }

    @Test
    void everyPageScriptAndStyleIsServedWithItsTypeAndATagThatSparesARepeatedDownload() {
        Map<String, String> types = Map.of(
                "/", "text/html",
                "/index.html", "text/html",
                "/run.html", "text/html",
                "/login.html", "text/html",
                "/queues.html", "text/html",
                "/schedules.html", "text/html",
                "/app.css", "text/css",
                "/run.js", "text/javascript",
                "/timeline.js", "text/javascript");
        types.forEach((path, type) -> {
            TestDashboard.Reply file =
                    t.send(HttpRequest.newBuilder(t.uri(path)).GET());
            assertThat(file.status()).as(path).isEqualTo(200);
            assertThat(file.raw().headers().firstValue("Content-Type"))
                    .as(path)
                    .hasValueSatisfying(v -> assertThat(v).startsWith(type));
            String tag = file.raw().headers().firstValue("ETag").orElseThrow();
            TestDashboard.Reply again = t.send(HttpRequest.newBuilder(t.uri(path))
                    .header("If-None-Match", tag)
                    .GET());
            assertThat(again.status()).as(path + " again with its tag").isEqualTo(304);
            assertThat(again.body()).isEmpty();
        });
        assertThat(t.send(HttpRequest.newBuilder(t.uri("/run.html")).GET()).body())
                .contains("<script src=\"/run.js\" defer></script>");
        TestDashboard.Reply missing =
                t.send(HttpRequest.newBuilder(t.uri("/nothing.js")).GET());
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.body()).contains("no such route: GET /nothing.js");
    }

    @Test
    void theLoginLinkSetsAStrictHttpOnlyCookieThatAuthorizesReads() {
        TestDashboard.Reply login = t.send(
                HttpRequest.newBuilder(t.uri("/?token=" + TestDashboard.TOKEN)).GET());
        assertThat(login.status()).isEqualTo(302);
        String cookie = login.raw().headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(cookie).contains("HttpOnly").contains("SameSite=Strict").startsWith("wf_token=");

        TestDashboard.Reply withCookie = t.send(HttpRequest.newBuilder(t.uri("/api/runs"))
                .header("Cookie", cookie.substring(0, cookie.indexOf(';')))
                .GET());
        assertThat(withCookie.status()).isEqualTo(200);

        TestDashboard.Reply wrong =
                t.send(HttpRequest.newBuilder(t.uri("/?token=nope")).GET());
        assertThat(wrong.status()).isEqualTo(302);
        assertThat(wrong.raw().headers().firstValue("Location"))
                .hasValueSatisfying(v -> assertThat(v).contains("login.html"));
        assertThat(wrong.raw().headers().firstValue("Set-Cookie")).isEmpty();
    }

    @Test
    void aRunsChainIsCheckedAndExportedAndAnEditInTheDatabaseIsFoundWhereItWasMade() throws Exception {
        t.waitingRun("order-5");
        t.post("/api/runs/order-5/signals/approval", "{\"by\":\"ana\"}");
        t.awaitRun("order-5", i -> i.status() == RunStatus.COMPLETED);

        JsonNode chain = t.get("/api/runs/order-5/chain").json();
        assertThat(chain.path("intact").asBoolean()).isTrue();
        assertThat(chain.path("chainedFrom").asLong()).isZero();
        assertThat(chain.path("head").asText()).startsWith("01").hasSize(66);
        TestDashboard.Reply export = t.get("/api/runs/order-5/chain/export");
        assertThat(export.raw().headers().firstValue("Content-Disposition"))
                .hasValueSatisfying(v -> assertThat(v).contains("order-5-log.json"));
        io.worldflow.spi.StoredLog exported = io.worldflow.format.LogChain.read(export.body());
        assertThat(io.worldflow.format.LogChain.verify(exported).intact()).isTrue();
        assertThat(exported.records()).hasSizeGreaterThan(2);

        // someone with the database rewrites who approved it
        long seq = exported.records().stream()
                .filter(r -> r.text().contains("ana"))
                .findFirst()
                .orElseThrow()
                .seq();
        try (java.sql.Connection c =
                        java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("dashboard.db"));
                java.sql.PreparedStatement ps = c.prepareStatement(
                        "UPDATE event_log SET events = replace(events, 'ana', 'bob') WHERE run_id = ? AND seq = ?")) {
            ps.setString(1, "order-5");
            ps.setLong(2, seq);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        JsonNode broken = t.get("/api/runs/order-5/chain").json();
        assertThat(broken.path("intact").asBoolean()).isFalse();
        assertThat(broken.path("brokenAt").asLong()).isEqualTo(seq);
        assertThat(broken.path("problem").asText()).contains("does not match its link");
        assertThat(t.get("/api/runs/nobody/chain").status()).isEqualTo(404);
    }

    @Test
    void aRunsHistoryIsReplayedAgainstTheCodeOfThisProcessAndAnEditedHistoryDiverges() throws Exception {
        t.waitingRun("order-6");
        JsonNode waiting = t.get("/api/runs/order-6/replay").json();
        assertThat(waiting.path("outcome").asText()).isEqualTo("CAUGHT_UP");
        assertThat(waiting.path("workflow").asText()).isEqualTo("approval");
        t.post("/api/runs/order-6/signals/approval", "{\"by\":\"ana\"}");
        t.awaitRun("order-6", i -> i.status() == RunStatus.COMPLETED);
        int events = t.get("/api/runs/order-6/events").json().size();

        JsonNode matched = t.get("/api/runs/order-6/replay").json();
        assertThat(matched.path("outcome").asText()).isEqualTo("MATCHED");
        assertThat(matched.path("events").asInt()).isEqualTo(events);

        // a history its code no longer matches: the first step renamed in the database
        try (java.sql.Connection c =
                        java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("dashboard.db"));
                java.sql.PreparedStatement ps = c.prepareStatement(
                        "UPDATE event_log SET events = replace(events, '\"prepare\"', '\"prepared\"') WHERE run_id = ?")) {
            ps.setString(1, "order-6");
            assertThat(ps.executeUpdate()).isPositive();
        }
        JsonNode diverged = t.get("/api/runs/order-6/replay").json();
        assertThat(diverged.path("outcome").asText()).isEqualTo("DIVERGED");
        assertThat(diverged.path("detail").asText())
                .contains("step 'prepared' in the history")
                .contains("the code now asks for step 'prepare'");
        assertThat(t.get("/api/runs/order-6/events").json().size())
                .as("a replay writes nothing")
                .isEqualTo(events);
        assertThat(t.get("/api/runs/nobody/replay").status()).isEqualTo(404);
    }

    @Test
    void withPayloadKeysTheDatabaseHoldsNoClearPayloadAndTheApiShowsThemInClear(@TempDir Path other) throws Exception {
        String key = java.util.Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());
        try (TestDashboard sealed = new TestDashboard(
                other,
                false,
                java.util.Set.of(io.worldflow.StartOptions.DEFAULT_QUEUE),
                java.util.List.of(),
                null,
                java.util.Map.of(io.worldflow.runtime.PayloadKeys.KEYS, "k1:" + key))) {
            sealed.waitingRun("secret-order-4242");
            sealed.post("/api/runs/secret-order-4242/signals/approval", "{\"by\":\"MARKER-APPROVER\"}");
            sealed.awaitRun("secret-order-4242", i -> i.status() == RunStatus.COMPLETED);

            JsonNode run = sealed.get("/api/runs/secret-order-4242").json();
            String events = sealed.get("/api/runs/secret-order-4242/events").body();

            assertThat(run.path("input").asText()).isEqualTo("secret-order-4242");
            assertThat(run.path("output").asText()).contains("approved by MARKER-APPROVER");
            assertThat(events).contains("MARKER-APPROVER").doesNotContain("wf:enc:v1");
            assertThat(sealed.get("/api/runs/secret-order-4242/events?format=codec")
                            .body())
                    .as("a saved history is the log as stored")
                    .contains("wf:enc:v1:k1:")
                    .doesNotContain("MARKER-APPROVER");
            sealed.close();
            String file = new String(
                    java.nio.file.Files.readAllBytes(other.resolve("dashboard.db")),
                    java.nio.charset.StandardCharsets.ISO_8859_1);
            assertThat(file).contains("secret-order-4242").doesNotContain("MARKER-APPROVER");
        }
    }

    @Test
    void publicReadsOpenReadsButNotActions(@TempDir Path other) {
        try (TestDashboard open = new TestDashboard(other, true)) {
            open.waitingRun("w-1");

            TestDashboard.Reply read =
                    open.send(HttpRequest.newBuilder(open.uri("/api/runs/w-1")).GET());
            TestDashboard.Reply act = open.send(HttpRequest.newBuilder(open.uri("/api/runs/w-1/cancel"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{}")));

            assertThat(read.status()).isEqualTo(200);
            assertThat(act.status()).isEqualTo(401);
            assertThat(open.wf.run("w-1").orElseThrow().cancelRequest()).isNull();
        }
    }

    @Test
    void settingsBindTheLoopbackInterfaceByDefaultAndMakeATokenWhenNoneIsConfigured() {
        DashboardSettings s = DashboardSettings.fromConfig(io.worldflow.spi.WorldConfig.of(java.util.Map.of()));

        assertThat(s.host()).isEqualTo("127.0.0.1");
        assertThat(s.port()).isEqualTo(7070);
        assertThat(s.generated()).isTrue();
        assertThat(s.token()).hasSize(48);
        assertThat(s.publicReads()).isFalse();
        assertThat(s.toString()).doesNotContain(s.token());
        assertThat(DashboardSettings.fromConfig(io.worldflow.spi.WorldConfig.of(java.util.Map.of()))
                        .token())
                .isNotEqualTo(s.token());
    }

    /** A token signed with the test secret, for cases a client cannot make through the API. */
    static String token(String runId, String name, Instant expires) {
        return new SignalTokens(TestDashboard.SECRET, "k").issue(runId, name, expires, false);
    }
}
