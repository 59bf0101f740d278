package io.worldflow.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import io.worldflow.QueueInfo;
import io.worldflow.QueueSpec;
import io.worldflow.RateLimit;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
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
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The queues API against a real server over a local world whose worker serves queue {@code ledger}. The ledger admits
 * one run at a time, and its runs are {@code approval}s, which wait for a signal: the first holds the place while the
 * others wait behind it, for as long as a test looks.
 */
class QueuesApiTest {

    static final Set<String> SERVED = Set.of(StartOptions.DEFAULT_QUEUE, "ledger", "reports");

    @TempDir
    Path dir;

    TestDashboard t;

    @BeforeEach
    void start() {
        t = new TestDashboard(dir, false, SERVED);
    }

    @AfterEach
    void stop() {
        t.close();
    }

    /**
     * Queue {@code ledger} with one place, taken by run {@code first} (waiting for its signal), and runs {@code w1},
     * {@code w2}, {@code w3} waiting behind it, and {@code later}, waiting too but not due for an hour.
     */
    static void fullLedger(TestDashboard t) {
        t.wf.queues().define(QueueSpec.named("ledger").withConcurrency(1));
        t.wf.start("approval", "first", StartOptions.queue("ledger").withId("first"));
        t.awaitRun("first", r -> r.status() == RunStatus.WAITING);
        for (String id : List.of("w1", "w2", "w3")) {
            t.wf.start("approval", id, StartOptions.queue("ledger").withId(id));
        }
        t.wf.start(
                "approval",
                "later",
                StartOptions.queue("ledger").withId("later").withDelay(Duration.ofHours(1)));
    }

    /** The queue as the API answers it once it satisfies {@code condition}; fails with the last answer otherwise. */
    static JsonNode awaitQueue(TestDashboard t, String name, Predicate<JsonNode> condition) {
        long end = System.nanoTime() + TestDashboard.WAIT.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < end) {
            last = t.get("/api/queues/" + name).json();
            if (condition.test(last)) {
                return last;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new AssertionError(
                "queue " + name + " did not get there within " + TestDashboard.WAIT + "; last " + last);
    }

    private static List<String> names(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.path("queues").forEach(q -> out.add(q.path("name").asText()));
        return out;
    }

    @Test
    void listsQueuesInNameOrderWithTheirLimitsAndHowManyRunsRunWaitAndAreThrottled() {
        t.wf.queues().define(QueueSpec.named("reports").withKeyConcurrency(2).withRateLimit(20, Duration.ofSeconds(1)));
        fullLedger(t);

        JsonNode list = t.get("/api/queues").json();

        assertThat(names(list)).containsExactly("ledger", "reports");
        JsonNode ledger = list.path("queues").get(0);
        assertThat(ledger.path("concurrency").asInt()).isEqualTo(1);
        assertThat(ledger.path("keyConcurrency").asInt()).isEqualTo(1);
        assertThat(ledger.path("rateLimit").isNull()).isTrue();
        assertThat(ledger.path("running").asInt()).isEqualTo(1);
        assertThat(ledger.path("waiting").asInt()).isEqualTo(4);
        assertThat(ledger.path("waitingCapped").asBoolean()).isFalse();
        // the run not due for an hour waits, but its start time has not come: the limits alone hold back three
        assertThat(ledger.path("throttled").asInt()).isEqualTo(3);
        QueueInfo stored = t.wf.queues().describe("ledger").orElseThrow();
        assertThat(Instant.parse(ledger.path("updatedAt").asText())).isEqualTo(stored.updatedAt());

        JsonNode reports = list.path("queues").get(1);
        assertThat(reports.path("concurrency").asInt()).as("no limit").isZero();
        assertThat(reports.path("keyConcurrency").asInt()).isEqualTo(2);
        assertThat(reports.path("rateLimit").path("starts").asInt()).isEqualTo(20);
        assertThat(reports.path("rateLimit").path("per").asText()).isEqualTo("PT1S");
        assertThat(reports.path("rateLimit").path("interval").asText()).isEqualTo("PT0.05S");
        assertThat(reports.path("running").asInt()).isZero();
        assertThat(reports.path("waiting").asInt()).isZero();
        assertThat(reports.path("throttled").asInt()).isZero();

        // the first run ends: the next takes its place, and the counts follow
        t.wf.signal("first", "approval", Map.of("by", "ops"));
        t.awaitRun("w1", r -> r.status() == RunStatus.WAITING);
        JsonNode after = awaitQueue(t, "ledger", q -> q.path("waiting").asInt() == 3);
        assertThat(after.path("running").asInt()).isEqualTo(1);
        assertThat(after.path("throttled").asInt()).isEqualTo(2);
        assertThat(t.wf.run("w2").orElseThrow().status()).isEqualTo(RunStatus.PENDING);
    }

    @Test
    void aPendingRunInAQueueWithLimitsNamesTheQueueItWaitsIn() {
        fullLedger(t);
        t.wf.start("approval", "elsewhere", StartOptions.id("elsewhere").withDelay(Duration.ofHours(1)));

        JsonNode waiting = t.get("/api/runs/w2").json();
        assertThat(waiting.path("status").asText()).isEqualTo("PENDING");
        assertThat(waiting.path("queue").asText()).isEqualTo("ledger");
        JsonNode queue = waiting.path("waitingInQueue");
        assertThat(queue.path("name").asText()).isEqualTo("ledger");
        assertThat(queue.path("concurrency").asInt()).isEqualTo(1);
        assertThat(queue.path("running").asInt()).isEqualTo(1);
        assertThat(queue.path("waiting").asInt()).isEqualTo(4);

        // admitted and going on, it waits in no queue; nor does a pending run of a queue without limits
        assertThat(t.get("/api/runs/first").json().path("waitingInQueue").isNull())
                .isTrue();
        JsonNode elsewhere = t.get("/api/runs/elsewhere").json();
        assertThat(elsewhere.path("status").asText()).isEqualTo("PENDING");
        assertThat(elsewhere.path("waitingInQueue").isNull()).isTrue();

        // a run started with an ordering key shows it; one started without shows none
        t.wf.start(
                "approval",
                "keyed",
                StartOptions.queue("ledger").withId("keyed").withKey("customer-7"));
        JsonNode keyed = t.get("/api/runs/keyed").json();
        assertThat(keyed.path("key").asText()).isEqualTo("customer-7");
        assertThat(keyed.path("waitingInQueue").path("name").asText()).isEqualTo("ledger");
        assertThat(waiting.has("key")).isTrue();
        assertThat(waiting.path("key").isNull()).isTrue();
    }

    @Test
    void oneQueueIsDescribedAndAnUnknownOrBadlyNamedOneIsRefusedNamingIt() {
        fullLedger(t);

        TestDashboard.Reply r = t.get("/api/queues/ledger");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().path("name").asText()).isEqualTo("ledger");
        assertThat(r.json().path("waiting").asInt()).isEqualTo(4);

        TestDashboard.Reply unknown = t.get("/api/queues/ghost");
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(404);
        assertThat(unknown.error()).isEqualTo("queue_not_found");
        assertThat(unknown.json().path("message").asText()).isEqualTo("queue 'ghost' does not exist");

        for (String bad : List.of("x".repeat(101), "led%01ger", "%20", "bad%20name", "bad%21")) {
            for (TestDashboard.Reply refused :
                    List.of(t.get("/api/queues/" + bad), t.put("/api/queues/" + bad, "{\"concurrency\": 2}"))) {
                assertThat(refused.status()).as(bad + ": " + refused.body()).isEqualTo(400);
                assertThat(refused.error()).isEqualTo("bad_request");
                assertThat(refused.json().path("message").asText()).contains("queue name");
            }
        }
        assertThat(t.wf.queues().list()).extracting(QueueInfo::name).containsExactly("ledger");
    }

    @Test
    void puttingLooserLimitsAdmitsWaitingRunsAndPuttingANewQueueCreatesIt() {
        fullLedger(t);

        TestDashboard.Reply r = t.put("/api/queues/ledger", "{\"concurrency\": 3}");

        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json().path("concurrency").asInt()).isEqualTo(3);
        assertThat(t.wf.queues().describe("ledger").orElseThrow().spec().concurrency())
                .isEqualTo(3);
        t.awaitRun("w1", i -> i.status() == RunStatus.WAITING);
        t.awaitRun("w2", i -> i.status() == RunStatus.WAITING);
        JsonNode after = awaitQueue(t, "ledger", q -> q.path("running").asInt() == 3);
        assertThat(after.path("waiting").asInt()).isEqualTo(2);
        assertThat(after.path("throttled").asInt()).isEqualTo(1);
        assertThat(t.wf.run("w3").orElseThrow().status()).isEqualTo(RunStatus.PENDING);

        // what a GET answers may be put back as it is
        JsonNode read = t.get("/api/queues/ledger").json();
        TestDashboard.Reply again = t.put("/api/queues/ledger", read.toString());
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(t.wf.queues().describe("ledger").orElseThrow().spec())
                .isEqualTo(QueueSpec.named("ledger").withConcurrency(3));

        TestDashboard.Reply created = t.put(
                "/api/queues/exports",
                "{\"concurrency\": 2, \"workerConcurrency\": 1, \"keyConcurrency\": 4,"
                        + " \"rateLimit\": {\"starts\": 10, \"per\": \"PT1M\"}}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.json().path("rateLimit").path("interval").asText()).isEqualTo("PT6S");
        assertThat(t.wf.queues().describe("exports").orElseThrow().spec())
                .isEqualTo(new QueueSpec("exports", 2, 1, 4, new RateLimit(10, Duration.ofMinutes(1))));
        assertThat(created.json().path("workerConcurrency").asInt()).isEqualTo(1);

        // a whole set of limits: one left out is none
        TestDashboard.Reply cleared = t.put("/api/queues/exports", "{}");
        assertThat(cleared.status()).isEqualTo(200);
        assertThat(t.wf.queues().describe("exports").orElseThrow().spec()).isEqualTo(QueueSpec.named("exports"));
    }

    @Test
    void badLimitsAreRefusedNamingTheFieldAndNothingIsStored() {
        t.wf.queues().define(QueueSpec.named("ledger").withConcurrency(2).withRateLimit(5, Duration.ofSeconds(1)));
        QueueInfo before = t.wf.queues().describe("ledger").orElseThrow();

        Map<String, String> refusals = Map.ofEntries(
                Map.entry("{\"concurrency\": -1}", "'concurrency'"),
                Map.entry("{\"concurrency\": 1001}", "'concurrency'"),
                Map.entry("{\"concurrency\": \"2\"}", "'concurrency'"),
                Map.entry("{\"concurrency\": 1.5}", "'concurrency'"),
                Map.entry("{\"keyConcurrency\": 0}", "'keyConcurrency'"),
                Map.entry("{\"workerConcurrency\": -1}", "'workerConcurrency'"),
                Map.entry("{\"rateLimit\": {\"starts\": 0, \"per\": \"PT1S\"}}", "'rateLimit.starts'"),
                Map.entry("{\"rateLimit\": {\"starts\": -3, \"per\": \"PT1S\"}}", "'rateLimit.starts'"),
                Map.entry("{\"rateLimit\": {\"per\": \"PT1S\"}}", "'rateLimit.starts'"),
                Map.entry("{\"rateLimit\": {\"starts\": 5, \"per\": \"PT0S\"}}", "'rateLimit.per'"),
                Map.entry("{\"rateLimit\": {\"starts\": 5, \"per\": \"-PT1S\"}}", "'rateLimit.per'"),
                Map.entry("{\"rateLimit\": {\"starts\": 5, \"per\": \"soon\"}}", "'rateLimit.per'"),
                Map.entry("{\"rateLimit\": {\"starts\": 5, \"per\": 1000}}", "'rateLimit.per'"),
                Map.entry("{\"rateLimit\": {\"starts\": 5}}", "'rateLimit.per'"),
                Map.entry("{\"rateLimit\": {\"starts\": 5, \"per\": \"PT1S\", \"burst\": 2}}", "'rateLimit.burst'"),
                Map.entry("{\"rateLimit\": 5}", "'rateLimit'"),
                Map.entry("{\"concurency\": 4}", "'concurency'"),
                Map.entry("{\"name\": \"other\", \"concurrency\": 4}", "'name'"),
                Map.entry("[4]", "JSON object"));
        for (Map.Entry<String, String> e : refusals.entrySet()) {
            for (String queue : List.of("ledger", "fresh")) {
                TestDashboard.Reply r = t.put("/api/queues/" + queue, e.getKey());
                assertThat(r.status()).as(e.getKey() + " → " + r.body()).isEqualTo(400);
                assertThat(r.json().path("message").asText()).as(e.getKey()).contains(e.getValue());
            }
        }
        TestDashboard.Reply malformed = t.put("/api/queues/ledger", "{\"concurrency\": ");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.error()).isEqualTo("malformed_json");

        QueueInfo after = t.wf.queues().describe("ledger").orElseThrow();
        assertThat(after.spec()).isEqualTo(before.spec());
        assertThat(after.updatedAt()).isEqualTo(before.updatedAt());
        assertThat(t.wf.queues().describe("fresh")).isEmpty();
    }

    @Test
    void settingLimitsNeedsTheTokenEvenWhenReadsArePublic(@TempDir Path other) {
        try (TestDashboard open = new TestDashboard(other, true, SERVED)) {
            open.wf.queues().define(QueueSpec.named("ledger").withConcurrency(1));

            TestDashboard.Reply read =
                    open.send(HttpRequest.newBuilder(open.uri("/api/queues")).GET());
            assertThat(read.status()).isEqualTo(200);
            assertThat(names(read.json())).containsExactly("ledger");
            assertThat(open.send(HttpRequest.newBuilder(open.uri("/api/queues/ledger"))
                                    .GET())
                            .status())
                    .isEqualTo(200);

            for (String queue : List.of("ledger", "fresh")) {
                TestDashboard.Reply put = open.send(HttpRequest.newBuilder(open.uri("/api/queues/" + queue))
                        .header("Content-Type", "application/json")
                        .PUT(HttpRequest.BodyPublishers.ofString("{\"concurrency\": 50}")));
                assertThat(put.status()).as(queue).isEqualTo(401);
                assertThat(put.error()).isEqualTo("unauthorized");
            }
            assertThat(open.wf.queues().describe("ledger").orElseThrow().spec().concurrency())
                    .isEqualTo(1);
            assertThat(open.wf.queues().describe("fresh")).isEmpty();
        }
        // without public reads, reading needs the token too
        assertThat(t.send(HttpRequest.newBuilder(t.uri("/api/queues")).GET()).status())
                .isEqualTo(401);
    }

    @Test
    void limitsMustBeSentAsJsonSoThatAnotherSitesFormCannotSendThem() {
        t.wf.queues().define(QueueSpec.named("ledger").withConcurrency(1));

        TestDashboard.Reply r = t.send(HttpRequest.newBuilder(t.uri("/api/queues/ledger"))
                .header("Authorization", "Bearer " + TestDashboard.TOKEN)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .PUT(HttpRequest.BodyPublishers.ofString("concurrency=50")));

        assertThat(r.status()).isEqualTo(415);
        assertThat(t.wf.queues().describe("ledger").orElseThrow().spec().concurrency())
                .isEqualTo(1);
    }

    @Test
    void theOpenApiDocumentDescribesTheQueueRoutesAndEveryFieldTheyAnswer() {
        t.wf.queues().define(QueueSpec.named("reports").withRateLimit(20, Duration.ofSeconds(1)));
        JsonNode doc =
                t.send(HttpRequest.newBuilder(t.uri("/api/openapi.json")).GET()).json();
        JsonNode paths = doc.path("paths");

        assertThat(paths.path("/api/queues").has("get")).isTrue();
        JsonNode one = paths.path("/api/queues/{name}");
        assertThat(one.path("get").path("responses").has("404")).isTrue();
        assertThat(one.path("get").path("responses").has("400")).isTrue();
        for (String status : List.of("200", "201", "400", "401", "415")) {
            assertThat(one.path("put").path("responses").has(status)).as(status).isTrue();
        }
        JsonNode schemas = doc.path("components").path("schemas");
        JsonNode answered = t.get("/api/queues/reports").json();
        assertThat(fields(schemas.path("Queue").path("properties"))).containsExactlyElementsOf(fields(answered));
        assertThat(fields(schemas.path("Queue")
                        .path("properties")
                        .path("rateLimit")
                        .path("properties")))
                .containsExactlyElementsOf(fields(answered.path("rateLimit")));
        assertThat(fields(schemas.path("QueueLimits").path("properties")))
                .containsExactly("concurrency", "workerConcurrency", "keyConcurrency", "rateLimit");
        assertThat(schemas.path("RunDetail").path("properties").has("waitingInQueue"))
                .isTrue();
    }

    private static List<String> fields(JsonNode object) {
        List<String> out = new ArrayList<>();
        object.fieldNames().forEachRemaining(out::add);
        return out;
    }

    @Test
    void theQueuesPageIsServedAndLinkedFromEveryOtherPage() {
        TestDashboard.Reply page =
                t.send(HttpRequest.newBuilder(t.uri("/queues.html")).GET());
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("<script src=\"/queues.js\"").contains("id=\"queues\"");
        TestDashboard.Reply script =
                t.send(HttpRequest.newBuilder(t.uri("/queues.js")).GET());
        assertThat(script.status()).isEqualTo(200);
        assertThat(script.body()).contains("/api/queues").contains("'PUT'").doesNotContain("innerHTML");
        for (String linking : List.of("/", "/run.html", "/schedules.html")) {
            assertThat(t.send(HttpRequest.newBuilder(t.uri(linking)).GET()).body())
                    .as(linking)
                    .contains("href=\"/queues.html\"");
        }
    }
}
