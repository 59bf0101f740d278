package io.worldflow.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.worldflow.CatchUpPolicy;
import io.worldflow.OverlapPolicy;
import io.worldflow.RunStatus;
import io.worldflow.ScheduleInfo;
import io.worldflow.ScheduleSpec;
import io.worldflow.SearchAttributes;
import io.worldflow.SearchKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The schedules API against a real server over a local world with a running worker. The schedules fire once a year
 * at most, so that only a trigger starts a run while a test looks.
 */
class SchedulesApiTest {

    /** 03:00 on the first of January: never while a test runs. */
    static final String YEARLY = "0 0 3 1 1 ?";

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

    /** A yearly schedule of {@code approval}, whose run waits for its signal: it stays the previous run. */
    private ScheduleInfo approvals(String id) {
        return t.wf.schedules().create(ScheduleSpec.cron(id, YEARLY, "approval", "from " + id));
    }

    private static List<String> ids(JsonNode page) {
        List<String> out = new ArrayList<>();
        page.path("schedules").forEach(s -> out.add(s.path("id").asText()));
        return out;
    }

    @Test
    void listsSchedulesInIdOrderPagedWithWhatTheyStartWhenAndTheirState() throws Exception {
        t.wf.schedules()
                .create(ScheduleSpec.cron("b-nightly", "0 0 2 * * ?", "order", new TestDashboard.Order("A-1", 2))
                        .inZone("Europe/Berlin")
                        .withJitter(Duration.ofSeconds(30))
                        .withOverlap(OverlapPolicy.BUFFER_ONE)
                        .withCatchUp(CatchUpPolicy.ALL, Duration.ofHours(2))
                        .onQueue("reports")
                        .withPriority(5)
                        .withSearchAttributes(SearchAttributes.of(SearchKey.forString("team"), "billing"))
                        .endingAt(Instant.parse("2099-01-01T00:00:00Z")));
        t.wf.schedules().create(ScheduleSpec.every("a-every", Duration.ofDays(365), "approval", "tick"));
        approvals("c-yearly");

        JsonNode first = t.get("/api/schedules?limit=2").json();
        assertThat(ids(first)).containsExactly("a-every", "b-nightly");
        assertThat(first.path("nextAfter").asText()).isEqualTo("b-nightly");
        JsonNode second = t.get("/api/schedules?limit=2&after=b-nightly").json();
        assertThat(ids(second)).containsExactly("c-yearly");
        assertThat(second.path("nextAfter").isNull()).isTrue();
        assertThat(ids(t.get("/api/schedules").json())).containsExactly("a-every", "b-nightly", "c-yearly");

        JsonNode b = first.path("schedules").get(1);
        ScheduleInfo stored = t.wf.schedules().describe("b-nightly");
        assertThat(b.path("workflow").asText()).isEqualTo("order");
        assertThat(b.path("cron").asText()).isEqualTo("0 0 2 * * ?");
        assertThat(b.path("every").isNull()).isTrue();
        assertThat(b.path("zone").asText()).isEqualTo("Europe/Berlin");
        assertThat(b.path("startAt").isNull()).isTrue();
        assertThat(b.path("endAt").asText()).isEqualTo("2099-01-01T00:00:00Z");
        assertThat(b.path("jitter").asText()).isEqualTo("PT30S");
        assertThat(b.path("overlap").asText()).isEqualTo("BUFFER_ONE");
        assertThat(b.path("catchUp").asText()).isEqualTo("ALL");
        assertThat(b.path("catchUpWindow").asText()).isEqualTo("PT2H");
        assertThat(b.path("queue").asText()).isEqualTo("reports");
        assertThat(b.path("priority").asInt()).isEqualTo(5);
        assertThat(b.path("searchAttributes").path("team").asText()).isEqualTo("billing");
        assertThat(b.path("searchAttributeTypes").path("team").asText()).isEqualTo("string");
        assertThat(b.path("paused").asBoolean()).isFalse();
        assertThat(Instant.parse(b.path("nextFireAt").asText())).isEqualTo(stored.nextFireAt());
        assertThat(b.path("upcoming"))
                .extracting(u -> Instant.parse(u.asText()))
                .containsExactlyElementsOf(stored.upcoming());
        assertThat(b.path("upcoming").size()).isGreaterThan(1);
        assertThat(b.path("lastFireAt").isNull()).isTrue();
        assertThat(b.path("lastRunId").isNull()).isTrue();
        assertThat(b.path("buffered").isNull()).isTrue();
        assertThat(Instant.parse(b.path("createdAt").asText())).isEqualTo(stored.createdAt());
        assertThat(Instant.parse(b.path("updatedAt").asText())).isEqualTo(stored.updatedAt());
        // the input as the user's value, as the runs API shows payloads
        assertThat(b.path("input")).isEqualTo(new ObjectMapper().readTree("{\"sku\":\"A-1\",\"quantity\":2}"));

        JsonNode a = first.path("schedules").get(0);
        assertThat(a.path("cron").isNull()).isTrue();
        assertThat(a.path("every").asText()).isEqualTo("PT8760H");
        assertThat(a.path("zone").asText()).isEqualTo("Z");
        assertThat(a.path("overlap").asText()).isEqualTo("SKIP");
        assertThat(a.path("input").asText()).isEqualTo("tick");

        TestDashboard.Reply badLimit = t.get("/api/schedules?limit=0");
        assertThat(badLimit.status()).isEqualTo(400);
        assertThat(badLimit.error()).isEqualTo("bad_request");
        assertThat(t.get("/api/schedules?limit=many").status()).isEqualTo(400);
    }

    @Test
    void oneScheduleIsDescribedAndAnUnknownOneIsA404NamingIt() {
        approvals("nightly");

        TestDashboard.Reply r = t.get("/api/schedules/nightly");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().path("id").asText()).isEqualTo("nightly");
        assertThat(r.json().path("input").asText()).isEqualTo("from nightly");

        for (TestDashboard.Reply unknown : List.of(
                t.get("/api/schedules/ghost"),
                t.post("/api/schedules/ghost/pause", "{}"),
                t.post("/api/schedules/ghost/resume", "{}"),
                t.post("/api/schedules/ghost/trigger", "{}"))) {
            assertThat(unknown.status()).as(unknown.body()).isEqualTo(404);
            assertThat(unknown.error()).isEqualTo("schedule_not_found");
            assertThat(unknown.json().path("message").asText()).isEqualTo("schedule 'ghost' does not exist");
        }
        assertThat(t.get("/api/schedules/" + "x".repeat(101)).status()).isEqualTo(400);
        assertThat(t.wf.runs(io.worldflow.RunQuery.all()).runs()).isEmpty();
    }

    @Test
    void pauseStopsTheScheduleAndResumeStartsItAgain() {
        approvals("nightly");

        TestDashboard.Reply paused = t.post("/api/schedules/nightly/pause", "{}");

        assertThat(paused.status()).as(paused.body()).isEqualTo(200);
        assertThat(paused.json().path("paused").asBoolean()).isTrue();
        assertThat(paused.json().path("nextFireAt").isNull()).isTrue();
        assertThat(t.wf.schedules().describe("nightly").paused()).isTrue();
        assertThat(t.get("/api/schedules/nightly").json().path("paused").asBoolean())
                .isTrue();

        TestDashboard.Reply resumed = t.post("/api/schedules/nightly/resume", "");

        assertThat(resumed.status()).as(resumed.body()).isEqualTo(200);
        assertThat(resumed.json().path("paused").asBoolean()).isFalse();
        ScheduleInfo after = t.wf.schedules().describe("nightly");
        assertThat(after.paused()).isFalse();
        assertThat(Instant.parse(resumed.json().path("nextFireAt").asText())).isEqualTo(after.nextFireAt());
    }

    @Test
    void triggerStartsARunNamedForTheScheduleAndTheRunSaysWhichScheduleAndFireTime() {
        approvals("nightly");

        TestDashboard.Reply r = t.post("/api/schedules/nightly/trigger", "{}");

        assertThat(r.status()).as(r.body()).isEqualTo(200);
        String runId = r.json().path("startedRunId").asText();
        assertThat(runId).startsWith("nightly@");
        assertThat(r.json().path("lastRunId").asText()).isEqualTo(runId);
        assertThat(t.wf.schedules().describe("nightly").lastRunId()).isEqualTo(runId);
        t.awaitRun(runId, i -> i.status() == RunStatus.WAITING);

        Instant fireTime = Instant.parse(runId.substring("nightly@".length()));
        JsonNode run = t.get("/api/runs/" + runId).json();
        assertThat(run.path("schedule").asText()).isEqualTo("nightly");
        assertThat(Instant.parse(run.path("scheduledFor").asText())).isEqualTo(fireTime);
        assertThat(Instant.parse(r.json().path("lastFireAt").asText())).isEqualTo(fireTime);
        JsonNode started = t.get("/api/runs/" + runId + "/events").json().get(0);
        assertThat(started.path("type").asText()).isEqualTo("WorkflowStarted");
        assertThat(started.path("schedule").asText()).isEqualTo("nightly");

        // the overlap policy applies: while that run waits, a schedule that skips starts nothing
        TestDashboard.Reply again = t.post("/api/schedules/nightly/trigger", "{}");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().path("startedRunId").isNull()).isTrue();
        assertThat(again.json().path("lastRunId").asText()).isEqualTo(runId);

        // a run no schedule started says so with nulls
        t.waitingRun("by-hand");
        JsonNode byHand = t.get("/api/runs/by-hand").json();
        assertThat(byHand.path("schedule").isNull()).isTrue();
        assertThat(byHand.path("scheduledFor").isNull()).isTrue();
    }

    @Test
    void aScheduleShowsItsLastRunsStatusAndWhyItIsHeldSinceAHeldRunStopsItUnderSkip() {
        approvals("nightly");
        assertThat(t.get("/api/schedules/nightly").json().path("lastRunStatus").isNull())
                .as("no run yet")
                .isTrue();
        String runId = t.post("/api/schedules/nightly/trigger", "{}")
                .json()
                .path("startedRunId")
                .asText();
        t.awaitRun(runId, i -> i.status() == RunStatus.WAITING);
        JsonNode waiting = t.get("/api/schedules/nightly").json();
        assertThat(waiting.path("lastRunStatus").asText()).isEqualTo("WAITING");
        assertThat(waiting.path("lastRunHeld").isNull()).isTrue();

        t.hold(runId, "the code now asks for a timer");

        JsonNode held = t.get("/api/schedules/nightly").json();
        assertThat(held.path("lastRunId").asText()).isEqualTo(runId);
        assertThat(held.path("lastRunStatus").asText())
                .as("a held run keeps its status")
                .isEqualTo("WAITING");
        assertThat(held.path("lastRunHeld").asText()).contains("the code now asks for a timer");
        assertThat(t.get("/api/schedules")
                        .json()
                        .path("schedules")
                        .get(0)
                        .path("lastRunHeld")
                        .asText())
                .contains("the code now asks for a timer");
        // and it stops the schedule: under SKIP a trigger starts nothing while the held run has not finished
        assertThat(t.post("/api/schedules/nightly/trigger", "{}")
                        .json()
                        .path("startedRunId")
                        .isNull())
                .isTrue();
    }

    @Test
    void aPausedScheduleCanStillBeTriggered() {
        approvals("nightly");
        t.wf.schedules().pause("nightly");

        TestDashboard.Reply r = t.post("/api/schedules/nightly/trigger", "{}");

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().path("paused").asBoolean()).isTrue();
        t.awaitRun(r.json().path("startedRunId").asText(), i -> i.status() == RunStatus.WAITING);
    }

    @Test
    void actionsAreRefusedToReadersWithoutTheTokenAndChangeNothing(@TempDir Path other) {
        try (TestDashboard open = new TestDashboard(other, true)) {
            open.wf.schedules().create(ScheduleSpec.cron("nightly", YEARLY, "approval", "x"));

            TestDashboard.Reply read =
                    open.send(HttpRequest.newBuilder(open.uri("/api/schedules")).GET());
            assertThat(read.status()).isEqualTo(200);
            assertThat(ids(read.json())).containsExactly("nightly");
            assertThat(open.send(HttpRequest.newBuilder(open.uri("/api/schedules/nightly"))
                                    .GET())
                            .status())
                    .isEqualTo(200);

            for (String action : List.of("pause", "resume", "trigger")) {
                TestDashboard.Reply act = open.send(HttpRequest.newBuilder(open.uri("/api/schedules/nightly/" + action))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{}")));
                assertThat(act.status()).as(action).isEqualTo(401);
                assertThat(act.error()).isEqualTo("unauthorized");
            }
            ScheduleInfo after = open.wf.schedules().describe("nightly");
            assertThat(after.paused()).isFalse();
            assertThat(after.lastRunId()).isNull();
            assertThat(open.wf.runs(io.worldflow.RunQuery.all()).runs()).isEmpty();
        }
        // without public reads, reading needs the token too
        assertThat(t.send(HttpRequest.newBuilder(t.uri("/api/schedules")).GET()).status())
                .isEqualTo(401);
    }

    @Test
    void anActionMustBeSentAsJsonSoThatAnotherSitesFormCannotSendIt() {
        approvals("nightly");

        TestDashboard.Reply r = t.send(HttpRequest.newBuilder(t.uri("/api/schedules/nightly/pause"))
                .header("Authorization", "Bearer " + TestDashboard.TOKEN)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("a=b")));

        assertThat(r.status()).isEqualTo(415);
        assertThat(t.wf.schedules().describe("nightly").paused()).isFalse();
    }

    @Test
    void theOpenApiDocumentDescribesTheScheduleRoutesAndEveryFieldTheyAnswer() {
        approvals("nightly");
        JsonNode doc =
                t.send(HttpRequest.newBuilder(t.uri("/api/openapi.json")).GET()).json();
        JsonNode paths = doc.path("paths");

        assertThat(paths.path("/api/schedules").has("get")).isTrue();
        assertThat(paths.path("/api/schedules/{scheduleId}").has("get")).isTrue();
        for (String action : List.of("pause", "resume", "trigger")) {
            JsonNode post = paths.path("/api/schedules/{scheduleId}/" + action).path("post");
            assertThat(post.isObject()).as(action).isTrue();
            assertThat(post.path("responses").has("404")).as(action).isTrue();
            assertThat(post.path("responses").has("401")).as(action).isTrue();
        }
        List<String> documented = new ArrayList<>();
        doc.path("components")
                .path("schemas")
                .path("Schedule")
                .path("properties")
                .fieldNames()
                .forEachRemaining(documented::add);
        List<String> answered = new ArrayList<>();
        t.get("/api/schedules/nightly").json().fieldNames().forEachRemaining(answered::add);
        assertThat(documented).containsExactlyElementsOf(answered);
        JsonNode triggered = doc.path("components").path("schemas").path("TriggeredSchedule");
        assertThat(triggered.toString()).contains("startedRunId");
        JsonNode run = doc.path("components").path("schemas").path("RunDetail").path("properties");
        assertThat(run.has("schedule")).isTrue();
        assertThat(run.has("scheduledFor")).isTrue();
    }

    @Test
    void theSchedulesPageIsServedAndLinkedFromTheRunPages() {
        TestDashboard.Reply page =
                t.send(HttpRequest.newBuilder(t.uri("/schedules.html")).GET());
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("<script src=\"/schedules.js\"").contains("id=\"schedules\"");
        TestDashboard.Reply script =
                t.send(HttpRequest.newBuilder(t.uri("/schedules.js")).GET());
        assertThat(script.status()).isEqualTo(200);
        assertThat(script.body())
                .contains("/api/schedules")
                .contains("'pause'")
                .contains("'resume'")
                .contains("'trigger'")
                .doesNotContain("innerHTML");
        for (String linking : List.of("/", "/run.html")) {
            assertThat(t.send(HttpRequest.newBuilder(t.uri(linking)).GET()).body())
                    .as(linking)
                    .contains("href=\"/schedules.html\"");
        }
    }
}
