package io.worldflow.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import io.worldflow.ConfigurationException;
import io.worldflow.QueueSpec;
import io.worldflow.RunStatus;
import io.worldflow.ScheduleSpec;
import io.worldflow.SearchAttributes;
import io.worldflow.SearchKey;
import io.worldflow.StartOptions;
import io.worldflow.spi.WorldConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Roles against a real server: a viewer reads and is refused every action, an operator acts on runs but not on
 * schedules or queues, an admin does all; each refusal is a 403 naming the caller and the role needed, is logged, and
 * changes nothing. Also the application's own authentication through a trusted header, and bad token configuration.
 */
class RolesTest {

    static final String VIEWER = "viewer-token-0123456789abcdef";
    static final String OPERATOR = "operator-token-0123456789abcdef";
    static final String AUDITOR_ADMIN = "second-admin-token-0123456789ab";

    @TempDir
    Path dir;

    TestDashboard t;
    LogCapture authLog;
    List<String> logged;

    @BeforeEach
    void start() {
        authLog = new LogCapture("io.worldflow.dashboard.internal.Auth");
        logged = authLog.lines;
        t = new TestDashboard(
                dir,
                false,
                Set.of(StartOptions.DEFAULT_QUEUE, "ledger"),
                List.of(
                        new DashboardToken("vera", Role.VIEWER, VIEWER),
                        new DashboardToken("otto", Role.OPERATOR, OPERATOR),
                        new DashboardToken("ada", Role.ADMIN, AUDITOR_ADMIN)),
                Authenticator.trustedHeader(
                        "X-Forwarded-User",
                        // "otto" is also a token's name: a proxy user of that name must not pass for the token
                        name -> name.equals("carol") || name.equals("otto") ? Role.OPERATOR : null));
        t.wf.schedules().create(ScheduleSpec.cron("yearly", "0 0 0 1 1 ? 2099", "approval", "from yearly"));
        t.wf.queues().define(QueueSpec.named("ledger").withConcurrency(2));
    }

    @AfterEach
    void stop() {
        t.close();
        authLog.close();
    }

    TestDashboard.Reply as(String token, String method, String path, String json) {
        HttpRequest.Builder b = HttpRequest.newBuilder(t.uri(path)).header("Content-Type", "application/json");
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return t.send(
                json == null
                        ? b.method(method, HttpRequest.BodyPublishers.noBody())
                        : b.method(method, HttpRequest.BodyPublishers.ofString(json)));
    }

    @Test
    void secretsAreMaskedForViewersAndOperatorsAndShownToAnAdmin() {
        t.close();
        String key = java.util.Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());
        t = new TestDashboard(
                dir.resolve("secrets"),
                false,
                Set.of(StartOptions.DEFAULT_QUEUE),
                List.of(
                        new DashboardToken("vera", Role.VIEWER, VIEWER),
                        new DashboardToken("otto", Role.OPERATOR, OPERATOR),
                        new DashboardToken("ada", Role.ADMIN, AUDITOR_ADMIN)),
                null,
                java.util.Map.of(
                        io.worldflow.runtime.PayloadKeys.KEYS,
                        "k1:" + key,
                        io.worldflow.runtime.PayloadKeys.SCOPE,
                        "secrets"));
        t.waitingRun("card-order");
        t.wf.signal(
                "card-order",
                "approval",
                java.util.Map.of("by", "ana", "card", io.worldflow.Secret.of("4242-SECRET-CARD")));
        t.awaitRun("card-order", i -> i.status() == io.worldflow.RunStatus.COMPLETED);

        for (String token : List.of(VIEWER, OPERATOR)) {
            String events =
                    as(token, "GET", "/api/runs/card-order/events", null).body();
            assertThat(events).contains("ana", io.worldflow.Secret.MASK).doesNotContain("4242-SECRET-CARD");
            assertThat(as(token, "GET", "/api/runs/card-order", null).body()).doesNotContain("4242-SECRET-CARD");
        }
        String admin =
                as(AUDITOR_ADMIN, "GET", "/api/runs/card-order/events", null).body();
        assertThat(admin).contains("4242-SECRET-CARD").doesNotContain(io.worldflow.Secret.MASK);
        assertThat(as(VIEWER, "GET", "/api/runs/card-order/events?format=codec", null)
                        .body())
                .as("the saved history is the log as stored: the secret sealed")
                .contains("wf:sec:v1:k1:")
                .doesNotContain("4242-SECRET-CARD");
    }

    @Test
    void aSignalSentAsJsonIsReadAsItsDeclaredTypeSoItsSecretIsMaskedAndABodyOfTheWrongShapeIsRefused() {
        t.close();
        String key = java.util.Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());
        t = new TestDashboard(
                dir.resolve("typed"),
                false,
                Set.of(StartOptions.DEFAULT_QUEUE),
                List.of(
                        new DashboardToken("otto", Role.OPERATOR, OPERATOR),
                        new DashboardToken("ada", Role.ADMIN, AUDITOR_ADMIN)),
                null,
                Map.of(
                        io.worldflow.runtime.PayloadKeys.KEYS,
                        "k1:" + key,
                        io.worldflow.runtime.PayloadKeys.SCOPE,
                        "secrets"));
        for (String id : List.of("by-api", "by-url")) {
            t.wf.start("card-update", id, StartOptions.id(id));
            t.awaitRun(id, i -> i.status() == RunStatus.WAITING);
        }
        String url = t.wf.signalUrl(t.dashboard.url(), "by-url", "card", java.time.Duration.ofHours(1), false)
                .toString();
        String wrong = "{\"by\": [\"not\", \"a name\"], \"number\": \"4242-SECRET-CARD\"}";

        assertThat(as(OPERATOR, "GET", "/api/runs/by-api", null)
                        .json()
                        .path("signalTypes")
                        .path("card")
                        .asText())
                .as("the run's view names the declared type")
                .isEqualTo(TestDashboard.CardUpdate.class.getName());
        TestDashboard.Reply refused = as(OPERATOR, "POST", "/api/runs/by-api/signals/card", wrong);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json().path("error").asText()).isEqualTo("bad_payload");
        assertThat(refused.json().path("message").asText())
                .contains("signal 'card' of workflow 'card-update' is declared as "
                        + TestDashboard.CardUpdate.class.getName())
                .contains("(at by)");
        TestDashboard.Reply refusedByUrl = t.send(HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(wrong)));
        assertThat(refusedByUrl.status()).isEqualTo(400);
        assertThat(refusedByUrl.json().path("error").asText()).isEqualTo("bad_payload");
        // no body at all, an empty object, a field left out: none reads as the declared type
        for (String body : new String[] {null, "{}", "{\"by\": \"bank-webhook\"}"}) {
            TestDashboard.Reply empty = as(OPERATOR, "POST", "/api/runs/by-api/signals/card", body);
            assertThat(empty.status()).as("body %s: %s", body, empty.body()).isEqualTo(400);
            assertThat(empty.json().path("error").asText()).isEqualTo("bad_payload");
        }
        for (String id : List.of("by-api", "by-url")) {
            assertThat(t.wf.run(id).orElseThrow().status())
                    .as("nothing stored, nothing woken")
                    .isEqualTo(RunStatus.WAITING);
        }

        String good = "{\"by\": \"bank-webhook\", \"number\": \"4242-SECRET-CARD\"}";
        assertThat(as(OPERATOR, "POST", "/api/runs/by-api/signals/card", good).status())
                .isEqualTo(202);
        assertThat(t.send(HttpRequest.newBuilder(URI.create(url))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(good)))
                        .status())
                .isEqualTo(202);
        for (String id : List.of("by-api", "by-url")) {
            t.awaitRun(id, i -> i.status() == RunStatus.COMPLETED);
            assertThat(t.wf.handle(id, String.class).result(java.time.Duration.ofSeconds(10)))
                    .isEqualTo(id + " has a new card from bank-webhook");
            String events =
                    as(OPERATOR, "GET", "/api/runs/" + id + "/events", null).body();
            assertThat(events)
                    .contains("bank-webhook", io.worldflow.Secret.MASK)
                    .doesNotContain("4242-SECRET-CARD");
            assertThat(as(AUDITOR_ADMIN, "GET", "/api/runs/" + id + "/events", null)
                            .body())
                    .contains("4242-SECRET-CARD");
            assertThat(as(OPERATOR, "GET", "/api/runs/" + id + "/events?format=codec", null)
                            .body())
                    .as("stored sealed")
                    .contains("wf:sec:v1:k1:")
                    .doesNotContain("4242-SECRET-CARD");
        }
    }

    @Test
    void searchAttributesAreNoSecretAndEveryRoleSeesThemAndFindsRunsByThem() {
        t.waitingRun(
                "tagged-1",
                SearchAttributes.of(SearchKey.forString("customer"), "acme").with(SearchKey.forLong("tier"), 2L));

        for (String token : List.of(VIEWER, OPERATOR, AUDITOR_ADMIN)) {
            JsonNode run = as(token, "GET", "/api/runs/tagged-1", null).json();
            assertThat(run.path("searchAttributes").path("customer").asText()).isEqualTo("acme");
            assertThat(run.path("searchAttributes").path("tier").asLong()).isEqualTo(2);
            JsonNode found = as(token, "GET", "/api/runs?attr=customer:acme&attr=tier:long:2", null)
                    .json()
                    .path("runs");
            assertThat(found).hasSize(1);
            assertThat(found.get(0).path("searchAttributes").path("customer").asText())
                    .isEqualTo("acme");
            assertThat(as(token, "GET", "/api/runs/tagged-1/events", null)
                            .json()
                            .get(0)
                            .path("searchAttributes")
                            .path("customer")
                            .asText())
                    .isEqualTo("acme");
        }
    }

    /** Who caused the run's first event of {@code type}, as its timeline in the API says. */
    String actorOf(String runId, String type) {
        for (com.fasterxml.jackson.databind.JsonNode e :
                as(VIEWER, "GET", "/api/runs/" + runId + "/events", null).json()) {
            if (e.path("type").asText().equals(type)) {
                return e.path("actor").asText(null);
            }
        }
        throw new AssertionError("run " + runId + " has no " + type);
    }

    @Test
    void aViewerReadsEverythingAndIsRefusedEveryActionWithNothingChanged() {
        t.waitingRun("w-1");
        t.failedRun("f-1");

        for (String path :
                List.of("/api/runs", "/api/runs/w-1", "/api/runs/w-1/events", "/api/schedules", "/api/queues/ledger")) {
            assertThat(as(VIEWER, "GET", path, null).status()).as(path).isEqualTo(200);
        }
        String url = t.wf.signalUrl(t.dashboard.url(), "w-1", "approval", java.time.Duration.ofHours(1), false)
                .toString();
        Map<String, String> actions = Map.of(
                "/api/runs", "{\"workflow\":\"approval\",\"id\":\"new-1\",\"input\":\"x\"}",
                "/api/runs/w-1/signal-urls/revoke", "{\"url\":\"" + url + "\"}",
                "/api/runs/w-1/cancel", "{}",
                "/api/runs/w-1/terminate", "{}",
                "/api/runs/f-1/retry", "{}",
                "/api/runs/w-1/signals/approval", "{\"by\":\"vera\"}",
                "/api/runs/w-1/signal-urls", "{\"name\":\"approval\",\"ttlSeconds\":600}",
                "/api/schedules/yearly/pause", "{}",
                "/api/schedules/yearly/trigger", "{}");
        actions.forEach((path, body) -> {
            TestDashboard.Reply r = as(VIEWER, "POST", path, body);
            assertThat(r.status()).as(path + ": " + r.body()).isEqualTo(403);
            assertThat(r.error()).isEqualTo("forbidden");
            assertThat(r.json().path("message").asText())
                    .contains("'vera' has the role viewer")
                    .contains(path);
        });
        TestDashboard.Reply put = as(VIEWER, "PUT", "/api/queues/ledger", "{\"concurrency\":9}");
        assertThat(put.status()).isEqualTo(403);
        assertThat(put.json().path("message").asText()).contains("needs the role admin");

        assertThat(t.wf.run("new-1")).isEmpty();
        assertThat(t.wf.run("w-1").orElseThrow().status()).isEqualTo(RunStatus.WAITING);
        assertThat(t.wf.run("w-1").orElseThrow().cancelRequest()).isNull();
        assertThat(t.wf.run("f-1").orElseThrow().status()).isEqualTo(RunStatus.FAILED);
        assertThat(t.wf.schedules().describe("yearly").paused()).isFalse();
        assertThat(t.wf.world().signals().revokedUrls("w-1"))
                .as("no URL revoked")
                .isEmpty();
        assertThat(t.wf.runs(io.worldflow.RunQuery.all().withWorkflow("approval"))
                        .runs())
                .as("no scheduled run triggered")
                .extracting(io.worldflow.RunInfo::runId)
                .containsExactly("w-1");
        assertThat(t.wf.queues().describe("ledger").orElseThrow().spec().concurrency())
                .isEqualTo(2);
        assertThat(logged)
                .filteredOn(m -> m.contains("'vera' (viewer)"))
                .hasSize(actions.size() + 1)
                .anySatisfy(
                        m -> assertThat(m).contains("POST /api/runs/w-1/cancel").contains("needs the role operator"));
        assertThat(t.wf.run("w-1").orElseThrow().status()).isEqualTo(RunStatus.WAITING);
    }

    @Test
    void anOperatorActsOnRunsButNotOnSchedulesOrQueues() {
        t.waitingRun("w-1");
        t.waitingRun("w-2");

        assertThat(as(OPERATOR, "POST", "/api/runs/w-1/signals/approval", "{\"by\":\"otto\"}")
                        .status())
                .isEqualTo(202);
        assertThat(as(OPERATOR, "POST", "/api/runs/w-2/cancel", "{}").status()).isEqualTo(202);
        TestDashboard.Reply pause = as(OPERATOR, "POST", "/api/schedules/yearly/pause", "{}");
        TestDashboard.Reply put = as(OPERATOR, "PUT", "/api/queues/ledger", "{\"concurrency\":9}");

        t.awaitRun("w-1", r -> r.status() == RunStatus.COMPLETED);
        t.awaitRun("w-2", r -> r.status() == RunStatus.CANCELED);
        assertThat(actorOf("w-1", "SignalReceived")).isEqualTo("dashboard:otto");
        assertThat(actorOf("w-2", "WorkflowCancelRequested")).isEqualTo("dashboard:otto");
        assertThat(pause.status()).isEqualTo(403);
        assertThat(pause.json().path("message").asText()).contains("'otto' has the role operator");
        assertThat(put.status()).isEqualTo(403);
        assertThat(t.wf.schedules().describe("yearly").paused()).isFalse();
        assertThat(t.wf.queues().describe("ledger").orElseThrow().spec().concurrency())
                .isEqualTo(2);
    }

    @Test
    void everyActionDoneIsLoggedWithItsCallerAndAnIssuedSignalUrlWithItsTokenIdAndWhoAskedForIt() {
        t.waitingRun("w-1");
        try (LogCapture routes = new LogCapture("io.worldflow.dashboard.internal.Routes");
                LogCapture urls = new LogCapture("io.worldflow.runtime.internal.SignalUrls")) {
            assertThat(as(OPERATOR, "POST", "/api/runs/w-1/signal-urls", "{\"name\":\"approval\"}")
                            .status())
                    .isEqualTo(201);
            String url = as(OPERATOR, "POST", "/api/runs/w-1/signal-urls", "{\"name\":\"approval\"}")
                    .json()
                    .path("url")
                    .asText();
            assertThat(as(OPERATOR, "POST", "/api/runs/w-1/cancel", "{}").status())
                    .isEqualTo(202);
            assertThat(as(VIEWER, "POST", "/api/runs/w-1/retry", "{}").status()).isEqualTo(403);

            assertThat(routes.lines)
                    .anyMatch(l -> l.startsWith("INFO POST /api/runs/w-1/cancel by 'otto' (operator, from "))
                    .anyMatch(l -> l.startsWith("INFO POST /api/runs/w-1/signal-urls by 'otto' (operator"))
                    .noneMatch(l -> l.contains("/retry"));
            String mac = url.substring(url.lastIndexOf('.') + 1);
            assertThat(urls.lines)
                    .hasSize(2)
                    .anyMatch(l -> l.startsWith("INFO signal URL " + mac.substring(0, 12)
                            + " issued for signal 'approval' of run w-1 to dashboard:otto, until "));
        }
    }

    @Test
    void aNamedAdminChangesSchedulesAndQueues() {
        assertThat(as(AUDITOR_ADMIN, "POST", "/api/schedules/yearly/pause", "{}")
                        .status())
                .isEqualTo(200);
        assertThat(as(AUDITOR_ADMIN, "PUT", "/api/queues/ledger", "{\"concurrency\":9}")
                        .status())
                .isEqualTo(200);

        assertThat(t.wf.schedules().describe("yearly").paused()).isTrue();
        assertThat(t.wf.schedules().describe("yearly").changedBy()).isEqualTo("dashboard:ada");
        assertThat(as(VIEWER, "GET", "/api/schedules/yearly", null)
                        .json()
                        .path("changedBy")
                        .asText())
                .isEqualTo("dashboard:ada");
        assertThat(t.wf.queues().describe("ledger").orElseThrow().spec().concurrency())
                .isEqualTo(9);
        assertThat(t.wf.queues().describe("ledger").orElseThrow().changedBy()).isEqualTo("dashboard:ada");
        com.fasterxml.jackson.databind.JsonNode ledger =
                as(VIEWER, "GET", "/api/queues/ledger", null).json();
        assertThat(ledger.path("changedBy").asText()).isEqualTo("dashboard:ada");
        assertThat(ledger.path("changedAt").asText()).isNotBlank();
    }

    @Test
    void theSessionSaysWhoAndWhichRoleAndAWrongTokenIsRefused() {
        com.fasterxml.jackson.databind.JsonNode session =
                as(VIEWER, "GET", "/api/session", null).json();
        assertThat(session.path("authenticated").asBoolean()).isTrue();
        assertThat(session.path("name").asText()).isEqualTo("vera");
        assertThat(session.path("role").asText()).isEqualTo("viewer");
        assertThat(as(TestDashboard.TOKEN, "GET", "/api/session", null)
                        .json()
                        .path("role")
                        .asText())
                .isEqualTo("admin");
        assertThat(as(null, "GET", "/api/session", null)
                        .json()
                        .path("authenticated")
                        .asBoolean())
                .isFalse();
        TestDashboard.Reply wrong = as("not-a-token-0123456789abcdef", "GET", "/api/runs", null);
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(as(null, "GET", "/api/runs", null).status()).isEqualTo(401);
        assertThat(logged).anySatisfy(m -> assertThat(m).contains("GET /api/runs from a wrong token"));
    }

    @Test
    void aViewerLoggedInByCookieReadsButCannotAct() {
        t.waitingRun("w-1");
        TestDashboard.Reply login = as(null, "POST", "/api/session", "{\"token\":\"" + VIEWER + "\"}");
        assertThat(login.status()).isEqualTo(204);
        String cookie =
                login.raw().headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];

        TestDashboard.Reply read = t.send(HttpRequest.newBuilder(t.uri("/api/runs/w-1"))
                .header("Cookie", cookie)
                .GET());
        TestDashboard.Reply act = t.send(HttpRequest.newBuilder(t.uri("/api/runs/w-1/cancel"))
                .header("Cookie", cookie)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}")));

        assertThat(read.status()).isEqualTo(200);
        assertThat(act.status()).isEqualTo(403);
        assertThat(t.wf.run("w-1").orElseThrow().cancelRequest()).isNull();
    }

    @Test
    void theApplicationsAuthenticatorNamesCallersWithoutATokenAndATokenComesFirst() {
        t.waitingRun("w-1");
        t.waitingRun("w-2");

        TestDashboard.Reply carol = t.send(HttpRequest.newBuilder(t.uri("/api/runs/w-1/signals/approval"))
                .header("X-Forwarded-User", "carol")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"by\":\"carol\"}")));
        TestDashboard.Reply mallory = t.send(HttpRequest.newBuilder(t.uri("/api/runs/w-2/cancel"))
                .header("X-Forwarded-User", "mallory")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}")));
        TestDashboard.Reply carolAsViewer = t.send(HttpRequest.newBuilder(t.uri("/api/runs/w-2/cancel"))
                .header("X-Forwarded-User", "carol")
                .header("Authorization", "Bearer " + VIEWER)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}")));

        assertThat(carol.status()).isEqualTo(202);
        t.awaitRun("w-1", r -> r.status() == RunStatus.COMPLETED);
        assertThat(actorOf("w-1", "SignalReceived")).isEqualTo("dashboard:carol");
        assertThat(mallory.status())
                .as("a name the application does not let in")
                .isEqualTo(401);
        assertThat(carolAsViewer.status()).as("the token decides").isEqualTo(403);
        TestDashboard.Reply ottoByProxy = t.send(HttpRequest.newBuilder(t.uri("/api/runs/w-2/cancel"))
                .header("X-Forwarded-User", "otto")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}")));
        assertThat(ottoByProxy.status())
                .as("an identity that is a token's name")
                .isEqualTo(401);
        assertThat(ottoByProxy.json().path("message").asText()).contains("'otto'", "name of a dashboard token");
        assertThat(logged).anyMatch(l -> l.contains("an identity refused") && l.contains("'otto'"));
        TestDashboard.Reply longName = t.send(HttpRequest.newBuilder(t.uri("/api/runs/w-2/cancel"))
                .header("X-Forwarded-User", "c".repeat(Caller.MAX_NAME_LENGTH + 1))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}")));
        assertThat(longName.status()).as("a name longer than a caller's may be").isEqualTo(401);
        assertThat(longName.json().path("message").asText())
                .contains("identity that is refused", "must be 1..150 characters", "was 151 characters");
        assertThat(logged).anyMatch(l -> l.contains("an identity refused") && l.contains("was 151 characters"));
        assertThat(t.wf.run("w-2").orElseThrow().cancelRequest()).isNull();
        assertThat(as(null, "GET", "/api/session", null)
                        .json()
                        .path("authenticated")
                        .asBoolean())
                .isFalse();
    }

    @Test
    void badTokenConfigurationIsRefusedNamingTheKeyAndNeverTheToken() {
        String good = "a-good-token-0123456789";
        Map<String, String> cases = Map.of(
                "vera:viewer:short",
                "at least 16",
                "vera:boss:" + good,
                "'boss' is not a role",
                "vera:viewer:" + good + ",vera:admin:" + good + "x",
                "'vera' is given twice",
                "admin:viewer:" + good,
                "'admin' is given twice",
                "vera:viewer:" + good + ",otto:admin:" + good,
                "each token must be its own",
                "vera-viewer-" + good,
                "entry 1 is not name:role:token",
                "vera:viewer:" + good + ",",
                "entry 2 is not name:role:token",
                "v e r a:viewer:" + good,
                "must be 1..64 letters");
        cases.forEach((value, message) -> assertThatThrownBy(() -> DashboardSettings.fromConfig(WorldConfig.of(Map.of(
                        DashboardSettings.TOKEN, "the-admin-token-0123456789", DashboardSettings.TOKENS, value))))
                .as(value)
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(DashboardSettings.TOKENS)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(good)));

        DashboardSettings fine = DashboardSettings.fromConfig(WorldConfig.of(
                Map.of(DashboardSettings.TOKENS, " vera:Viewer:" + good + " , otto:operator:" + good + "2")));
        assertThat(fine.tokens())
                .extracting(DashboardToken::name, DashboardToken::role)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("vera", Role.VIEWER),
                        org.assertj.core.groups.Tuple.tuple("otto", Role.OPERATOR));
        assertThat(fine.toString()).doesNotContain(good);
    }

    @Test
    void whereReadsArePublicAnyoneReadsButActionsStillNeedAnOperator(@TempDir Path other) {
        try (TestDashboard open = new TestDashboard(
                other,
                true,
                Set.of(StartOptions.DEFAULT_QUEUE),
                List.of(new DashboardToken("vera", Role.VIEWER, VIEWER)),
                null)) {
            open.waitingRun("w-1");
            TestDashboard.Reply read =
                    open.send(HttpRequest.newBuilder(open.uri("/api/runs/w-1")).GET());
            TestDashboard.Reply anonymous = open.send(HttpRequest.newBuilder(open.uri("/api/runs/w-1/cancel"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{}")));
            TestDashboard.Reply viewer = open.send(HttpRequest.newBuilder(open.uri("/api/runs/w-1/cancel"))
                    .header("Authorization", "Bearer " + VIEWER)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{}")));

            assertThat(read.status()).isEqualTo(200);
            assertThat(anonymous.status()).isEqualTo(401);
            assertThat(viewer.status()).isEqualTo(403);
            assertThat(open.wf.run("w-1").orElseThrow().cancelRequest()).isNull();
            assertThat(open.send(HttpRequest.newBuilder(open.uri("/api/session"))
                                    .GET())
                            .json()
                            .path("role")
                            .asText())
                    .isEqualTo("viewer");
        }
    }
}
