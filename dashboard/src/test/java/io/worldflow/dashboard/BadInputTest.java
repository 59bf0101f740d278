package io.worldflow.dashboard;

import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.spi.PendingSignal;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bad-input table: each request gets a clear 4xx JSON error and changes nothing (no run, event, signal
 * or state differs afterwards).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputTest {

    static final String HOSTILE = "<script>alert('x')</script>' OR 1=1; --";

    @TempDir
    static Path dir;

    TestDashboard t;

    /** A case: what is sent, the status and error code expected back, and what its message must say (each of). */
    record Case(
            String name,
            Function<TestDashboard, HttpRequest.Builder> request,
            int status,
            String error,
            List<String> says) {

        Case(String name, Function<TestDashboard, HttpRequest.Builder> request, int status, String error) {
            this(name, request, status, error, List.of());
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** A search filter refused: a 400 whose message says each of {@code says}. */
    static Case refused(String name, String pathAndQuery, String... says) {
        return new Case(name, t -> get(t, pathAndQuery), 400, "bad_request", List.of(says));
    }

    /** {@code count} attribute filters, each of its own name. */
    static String manyAttributes(int count) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < count; i++) {
            b.append(i == 0 ? "" : "&").append("attr=a").append(i).append(":x");
        }
        return b.toString();
    }

    @BeforeAll
    void start() {
        t = new TestDashboard(dir, false);
        t.waitingRun("w-1");
        t.failedRun("f-1");
        t.wf.start("approval", "done", io.worldflow.StartOptions.id("d-1"));
        t.awaitRun("d-1", r -> r.status() == io.worldflow.RunStatus.WAITING);
        t.wf.signal("d-1", "approval", Map.of("by", "setup"));
        t.awaitRun("d-1", r -> r.status() == io.worldflow.RunStatus.COMPLETED);
    }

    @AfterAll
    void stop() {
        t.close();
    }

    static HttpRequest.Builder get(TestDashboard t, String path) {
        return HttpRequest.newBuilder(t.uri(path))
                .header("Authorization", "Bearer " + TestDashboard.TOKEN)
                .GET();
    }

    static HttpRequest.Builder post(TestDashboard t, String path, String body) {
        return HttpRequest.newBuilder(t.uri(path))
                .header("Authorization", "Bearer " + TestDashboard.TOKEN)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    static HttpRequest.Builder signalUrl(TestDashboard t, String pathAndQuery, String body) {
        return HttpRequest.newBuilder(URI.create(t.dashboard.url() + pathAndQuery))
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    static String q(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static String token(String runId, String name, Instant expires) {
        return ApiTest.token(runId, name, expires);
    }

    static Instant later() {
        return Instant.now().plusSeconds(3600);
    }

    static Stream<Case> cases() {
        String big = "{\"pad\":\"" + "x".repeat(70 * 1024) + "\"}";
        return Stream.of(
                // authentication
                new Case(
                        "no token on a read",
                        t -> HttpRequest.newBuilder(t.uri("/api/runs")).GET(),
                        401,
                        "unauthorized"),
                new Case(
                        "wrong token on a read",
                        t -> HttpRequest.newBuilder(t.uri("/api/runs"))
                                .header("Authorization", "Bearer wrong-token-wrong-token")
                                .GET(),
                        401,
                        "unauthorized"),
                new Case(
                        "not a bearer header",
                        t -> HttpRequest.newBuilder(t.uri("/api/runs"))
                                .header("Authorization", "Basic " + TestDashboard.TOKEN)
                                .GET(),
                        401,
                        "unauthorized"),
                new Case(
                        "wrong cookie",
                        t -> HttpRequest.newBuilder(t.uri("/api/runs/w-1"))
                                .header("Cookie", "wf_token=nope")
                                .GET(),
                        401,
                        "unauthorized"),
                new Case(
                        "no token on start",
                        t -> HttpRequest.newBuilder(t.uri("/api/runs"))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        "{\"workflow\":\"approval\",\"id\":\"new-1\"}")),
                        401,
                        "unauthorized"),
                new Case(
                        "no token on signal",
                        t -> HttpRequest.newBuilder(t.uri("/api/runs/w-1/signals/approval"))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{}")),
                        401,
                        "unauthorized"),
                new Case(
                        "wrong token on cancel",
                        t -> HttpRequest.newBuilder(t.uri("/api/runs/w-1/cancel"))
                                .header("Authorization", "Bearer " + TestDashboard.TOKEN + "x")
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{}")),
                        401,
                        "unauthorized"),
                // signal URLs
                new Case(
                        "signal URL without token",
                        t -> signalUrl(t, "/signals/w-1/approval", "{}"),
                        403,
                        "invalid_token"),
                new Case(
                        "forged signal token",
                        t -> signalUrl(
                                t,
                                "/signals/w-1/approval?token=9999999999.m.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                                "{}"),
                        403,
                        "invalid_token"),
                new Case(
                        "altered expiry",
                        t -> {
                            String[] p = token("w-1", "approval", later()).split("\\.");
                            return signalUrl(
                                    t,
                                    "/signals/w-1/approval?token=" + (Long.parseLong(p[0]) + 1) + "." + p[1] + "."
                                            + p[2],
                                    "{}");
                        },
                        403,
                        "invalid_token"),
                new Case(
                        "token of another run",
                        t -> signalUrl(t, "/signals/w-1/approval?token=" + token("f-1", "approval", later()), "{}"),
                        403,
                        "invalid_token"),
                new Case(
                        "token of another signal name",
                        t -> signalUrl(t, "/signals/w-1/approval?token=" + token("w-1", "refund", later()), "{}"),
                        403,
                        "invalid_token"),
                new Case(
                        "expired signal token",
                        t -> signalUrl(
                                t,
                                "/signals/w-1/approval?token="
                                        + token("w-1", "approval", Instant.now().minusSeconds(5)),
                                "{}"),
                        410,
                        "expired_token"),
                new Case(
                        "signal URL of an unknown run",
                        t -> signalUrl(t, "/signals/ghost/approval?token=" + token("ghost", "approval", later()), "{}"),
                        404,
                        "run_not_found"),
                new Case(
                        "signal URL of a finished run",
                        t -> signalUrl(t, "/signals/d-1/approval?token=" + token("d-1", "approval", later()), "{}"),
                        409,
                        "run_finished"),
                new Case(
                        "signal URL with malformed JSON",
                        t -> signalUrl(
                                t, "/signals/w-1/approval?token=" + token("w-1", "approval", later()), "{\"by\":"),
                        400,
                        "malformed_json"),
                new Case(
                        "signal URL with an oversized body",
                        t -> signalUrl(t, "/signals/w-1/approval?token=" + token("w-1", "approval", later()), big),
                        413,
                        "body_too_large"),
                // runs and actions
                new Case("unknown run", t -> get(t, "/api/runs/ghost"), 404, "run_not_found"),
                new Case(
                        "signal to an unknown run",
                        t -> post(t, "/api/runs/ghost/signals/approval", "{}"),
                        404,
                        "run_not_found"),
                new Case(
                        "signal to a finished run",
                        t -> post(t, "/api/runs/d-1/signals/approval", "{}"),
                        409,
                        "run_finished"),
                new Case("cancel a finished run", t -> post(t, "/api/runs/d-1/cancel", "{}"), 409, "run_finished"),
                new Case("cancel an unknown run", t -> post(t, "/api/runs/ghost/cancel", "{}"), 404, "run_not_found"),
                new Case("retry a run that did not fail", t -> post(t, "/api/runs/w-1/retry", "{}"), 409, "conflict"),
                new Case("retry an unknown run", t -> post(t, "/api/runs/ghost/retry", "{}"), 404, "run_not_found"),
                new Case(
                        "signal URL for a finished run",
                        t -> post(t, "/api/runs/d-1/signal-urls", "{\"name\":\"approval\"}"),
                        409,
                        "run_finished"),
                new Case(
                        "signal URL with a bad lifetime",
                        t -> post(t, "/api/runs/w-1/signal-urls", "{\"name\":\"approval\",\"ttlSeconds\":-1}"),
                        400,
                        "bad_request"),
                new Case(
                        "malformed JSON on start",
                        t -> post(t, "/api/runs", "{\"workflow\": approval}"),
                        400,
                        "malformed_json"),
                new Case("start without a workflow", t -> post(t, "/api/runs", "{\"input\":1}"), 400, "bad_request"),
                new Case(
                        "start with a number as workflow",
                        t -> post(t, "/api/runs", "{\"workflow\":7}"),
                        400,
                        "bad_request"),
                new Case(
                        "start with a body that is not an object",
                        t -> post(t, "/api/runs", "[1,2]"),
                        400,
                        "bad_request"),
                new Case(
                        "start with an id of another workflow",
                        t -> post(t, "/api/runs", "{\"workflow\":\"checkout\",\"id\":\"w-1\"}"),
                        409,
                        "conflict"),
                new Case(
                        "start with a hostile workflow name",
                        t -> post(t, "/api/runs", "{\"workflow\":\"a\\u0000b\",\"id\":\"h-1\"}"),
                        400,
                        "bad_request"),
                new Case(
                        "start with a bad priority",
                        t -> post(t, "/api/runs", "{\"workflow\":\"approval\",\"id\":\"p-1\",\"priority\":\"high\"}"),
                        400,
                        "bad_request"),
                new Case(
                        "start with search attributes that are not a list",
                        t -> post(
                                t,
                                "/api/runs",
                                "{\"workflow\":\"approval\",\"id\":\"sa-1\",\"searchAttributes\":{\"a\":1}}"),
                        400,
                        "bad_request",
                        List.of("'searchAttributes'", "list")),
                new Case(
                        "start with a search attribute that is a number",
                        t -> post(
                                t, "/api/runs", "{\"workflow\":\"approval\",\"id\":\"sa-2\",\"searchAttributes\":[7]}"),
                        400,
                        "bad_request",
                        List.of("'searchAttributes'", "7")),
                new Case(
                        "start with a search attribute of an unknown type",
                        t -> post(
                                t,
                                "/api/runs",
                                "{\"workflow\":\"approval\",\"id\":\"sa-3\",\"searchAttributes\":[\"n:double:1.5\"]}"),
                        400,
                        "bad_request",
                        List.of("'searchAttributes'", "unknown type 'double'")),
                new Case(
                        "start with an oversized search attribute",
                        t -> post(
                                t,
                                "/api/runs",
                                "{\"workflow\":\"approval\",\"id\":\"sa-4\",\"searchAttributes\":[\"note:"
                                        + "x".repeat(257) + "\"]}"),
                        400,
                        "bad_request",
                        List.of("'searchAttributes'", "257 chars")),
                new Case("oversized body", t -> post(t, "/api/runs", big), 413, "body_too_large"),
                new Case(
                        "form instead of JSON",
                        t -> HttpRequest.newBuilder(t.uri("/api/runs/w-1/signals/approval"))
                                .header("Authorization", "Bearer " + TestDashboard.TOKEN)
                                .header("Content-Type", "application/x-www-form-urlencoded")
                                .POST(HttpRequest.BodyPublishers.ofString("by=x")),
                        415,
                        "unsupported_media_type"),
                new Case("blank signal name", t -> post(t, "/api/runs/w-1/signals/%20", "{}"), 400, "bad_request"),
                // queries
                new Case("unknown status", t -> get(t, "/api/runs?status=DONE"), 400, "bad_request"),
                new Case("hostile status", t -> get(t, "/api/runs?status=" + q(HOSTILE)), 400, "bad_request"),
                new Case("limit not a number", t -> get(t, "/api/runs?limit=ten"), 400, "bad_request"),
                new Case("limit too large", t -> get(t, "/api/runs?limit=5000"), 400, "bad_request"),
                new Case("forged cursor", t -> get(t, "/api/runs?cursor=" + q(HOSTILE)), 400, "bad_request"),
                new Case("bad time", t -> get(t, "/api/runs?createdAfter=yesterday"), 400, "bad_request"),
                new Case("held not true or false", t -> get(t, "/api/runs?held=yes"), 400, "bad_request"),
                new Case("hostile held on counts", t -> get(t, "/api/counts?held=" + q(HOSTILE)), 400, "bad_request"),
                new Case(
                        "hostile held on live runs",
                        t -> get(t, "/api/live/runs?held=" + q(HOSTILE)),
                        400,
                        "bad_request"),
                new Case("unknown export format", t -> get(t, "/api/runs/w-1/events?format=xml"), 400, "bad_request"),
                new Case(
                        "bad time on counts",
                        t -> get(t, "/api/counts?createdBefore=" + q(HOSTILE)),
                        400,
                        "bad_request"),
                // search filters
                refused("attribute without a value", "/api/runs?attr=customer", "'attr'", "'customer'", "name:value"),
                refused("attribute of a bad name", "/api/runs?attr=1st:x", "'attr'", "bad name", "'1st'"),
                refused(
                        "attribute of a hostile name",
                        "/api/runs?attr=" + q(HOSTILE + ":x"),
                        "'attr'",
                        "bad name",
                        "letter"),
                refused("attribute of an empty name", "/api/runs?attr=:x", "'attr'", "bad name"),
                refused("attribute of an unknown type", "/api/runs?attr=amount:int:5", "'attr'", "unknown type 'int'"),
                refused(
                        "string attribute holding ':' without its type",
                        "/api/runs?attr=" + q("site:http://x"),
                        "unknown type 'http'",
                        "name:string:value"),
                refused("long attribute not a number", "/api/runs?attr=amount:long:12.5", "not a long", "'12.5'"),
                refused(
                        "long attribute out of range",
                        "/api/runs?attr=amount:long:99999999999999999999",
                        "not a long",
                        "99999999999999999999"),
                refused("boolean attribute not a boolean", "/api/runs?attr=vip:boolean:yes", "not a boolean", "'yes'"),
                refused(
                        "instant attribute not an instant",
                        "/api/counts?attr=due:instant:tomorrow",
                        "not an instant",
                        "'tomorrow'"),
                refused(
                        "string attribute too long",
                        "/api/runs?attr=note:" + "x".repeat(257),
                        "'attr'",
                        "'note'",
                        "257 chars",
                        "256"),
                refused("too many attributes", "/api/runs?" + manyAttributes(33), "'attr'", "at most 32"),
                refused(
                        "one attribute twice with different values",
                        "/api/runs?attr=customer:42&attr=customer:43",
                        "'attr'",
                        "'customer' again"),
                refused(
                        "one attribute twice with different types",
                        "/api/counts?attr=customer:42&attr=customer:long:42",
                        "'customer' again"),
                refused("bad attribute on live runs", "/api/live/runs?attr=vip:boolean:maybe", "not a boolean"),
                refused("blank queue", "/api/runs?queue=%20%20", "'queue'", "a space at index 0"),
                refused("queue too long", "/api/counts?queue=" + "q".repeat(101), "'queue'", "1..100"),
                refused("queue with a control character", "/api/runs?queue=a%01b", "'queue'", "U+0001 at index 1"),
                refused("queue with a space", "/api/runs?queue=bulk%20mail", "'queue'", "a space at index 4"),
                refused("bad updatedAfter", "/api/runs?updatedAfter=yesterday", "'updatedAfter'", "'yesterday'"),
                refused(
                        "hostile updatedBefore on counts",
                        "/api/counts?updatedBefore=" + q(HOSTILE),
                        "'updatedBefore'",
                        "ISO-8601"),
                new Case("unknown route", t -> get(t, "/api/nothing-here"), 404, "not_found"),
                new Case(
                        "unknown route without login",
                        t -> HttpRequest.newBuilder(t.uri("/api/nothing")).GET(),
                        401,
                        "unauthorized"),
                new Case(
                        "wrong method",
                        t -> HttpRequest.newBuilder(t.uri("/api/runs/w-1"))
                                .header("Authorization", "Bearer " + TestDashboard.TOKEN)
                                .DELETE(),
                        404,
                        "not_found"));
    }

    /** What a bad request must not change. */
    private record State(List<RunInfo> runs, List<PendingSignal> signals, long events) {}

    private State state() {
        List<RunInfo> runs = t.wf.runs(RunQuery.all().withLimit(1000)).runs();
        long events =
                runs.stream().mapToLong(r -> t.wf.events(r.runId()).size()).sum();
        return new State(runs, t.wf.world().signals().pending("w-1"), events);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aBadRequestGetsAClearErrorAndChangesNothing(Case c) {
        State before = state();

        TestDashboard.Reply r = t.send(c.request().apply(t));

        assertThat(r.status()).as("%s: %s", c.name(), r.body()).isEqualTo(c.status());
        assertThat(r.raw().headers().firstValue("Content-Type"))
                .as(c.name())
                .hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
        assertThat(r.error()).as(c.name() + ": " + r.body()).isEqualTo(c.error());
        assertThat(r.json().path("message").asText()).as(c.name()).isNotBlank();
        if (!c.says().isEmpty()) {
            assertThat(r.json().path("message").asText()).as(c.name()).contains(c.says());
        }
        assertThat(state()).as(c.name()).isEqualTo(before);
    }

    @org.junit.jupiter.api.Test
    void hostileFiltersAndPayloadsAreDataNotCode() {
        TestDashboard.Reply list = t.get("/api/runs?workflow=" + q(HOSTILE) + "&idPrefix=" + q("' OR '1'='1"));
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.json().path("runs")).isEmpty();

        TestDashboard.Reply started = t.post(
                "/api/runs",
                "{\"workflow\":\"approval\",\"id\":\"" + "h<b>\\\"'" + "\",\"input\":\""
                        + HOSTILE.replace("'", "\\u0027") + "\"}");
        assertThat(started.status()).as(started.body()).isEqualTo(201);
        assertThat(t.wf.run("h<b>\"'").orElseThrow().input().json()).isEqualTo("\"" + HOSTILE.replace("'", "'") + "\"");
        TestDashboard.Reply read = t.get("/api/runs/" + q("h<b>\"'").replace("+", "%20"));
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json().path("input").asText()).isEqualTo(HOSTILE);
        assertThat(read.raw().headers().firstValue("Content-Type"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
        t.wf.cancel("h<b>\"'");
    }

    @org.junit.jupiter.api.Test
    void aClientStillSendingAnOversizedBodyGetsItsAnswerNotAResetConnection() {
        String big = "{\"pad\":\"" + "x".repeat(1024 * 1024) + "\"}";
        for (int i = 0; i < 50; i++) {
            TestDashboard.Reply declared = t.post("/api/runs", big);
            TestDashboard.Reply chunked = t.send(HttpRequest.newBuilder(t.uri("/api/runs"))
                    .header("Authorization", "Bearer " + TestDashboard.TOKEN)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() ->
                            new java.io.ByteArrayInputStream(big.getBytes(java.nio.charset.StandardCharsets.UTF_8)))));

            assertThat(declared.status()).as("with Content-Length, try %d", i).isEqualTo(413);
            assertThat(chunked.status()).as("chunked, try %d", i).isEqualTo(413);
            assertThat(chunked.error()).isEqualTo("body_too_large");
        }
    }
}
