package io.worldflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.worldflow.QueueSpec;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.ScheduleSpec;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.TimelineText;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command as a user runs it, against one way of reaching runs: the world is filled by an application's Worldflow
 * in this JVM ({@link TestWorkflows#startRuns}), then one child JVM runs every command line of {@link #commands()} in
 * order, and the tests read what each printed and what it did to the runs. A world the application keeps open while
 * the commands run (every one but the local world's file) has its worker carry out signals, cancellations and retries
 * at once; otherwise the application opens it again after the commands, as a restarted application would.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class CliScenarioTest {

    static final ObjectMapper JSON = new ObjectMapper();

    final TestWorkflows flows = new TestWorkflows();
    Path dir;
    Worldflow wf;
    Map<String, CliResult> results;
    String greetTimeline;
    List<Event> greetEvents;

    /** The configuration of the application's Worldflow. */
    abstract Map<String, String> worldProperties() throws Exception;

    /** What every command line starts with to reach the runs: {@code -p …} options, or {@code --server …}. */
    abstract List<String> connection();

    /** Whether the application stays open while the commands run (false for the local world's file). */
    abstract boolean live();

    /** Who the log records as having asked for a cancellation made through the command. */
    abstract String actor();

    /** More command lines a world's own tests read, run after the common ones. */
    Map<String, List<String>> extraCommands() {
        return Map.of();
    }

    /** What a world's test does once the commands have run and before the application opens the world again. */
    void afterCommands() throws Exception {}

    @BeforeAll
    void runCommands() throws Exception {
        dir = Files.createTempDirectory("cli-" + getClass().getSimpleName());
        wf = flows.open(worldProperties());
        flows.startRuns(wf);
        wf.schedules().create(ScheduleSpec.every("hourly", Duration.ofHours(1), flows.greet, "on time"));
        wf.queues().define(QueueSpec.named("ledger").withConcurrency(1));
        greetEvents = wf.events("greet-1");
        greetTimeline = TimelineText.render(greetEvents);
        if (!live()) {
            wf.close();
        }
        flows.cardWorks.set(true); // the retried charge goes through
        results = ChildCli.batch(List.of(), commands());
        afterCommands();
        if (!live()) {
            wf = flows.open(worldProperties()); // a restarted application's worker carries out what was asked
        }
    }

    @AfterAll
    void close() {
        if (wf != null) {
            wf.close();
        }
    }

    private Map<String, List<String>> commands() {
        Map<String, List<String>> c = new LinkedHashMap<>();
        c.put("list", cli("runs", "list"));
        c.put("waitingJson", cli("runs", "list", "--status", "waiting", "--json"));
        c.put("acme", cli("runs", "list", "--attr", "customer:acme"));
        c.put("paged", cli("runs", "list", "--limit", "2"));
        c.put("show", cli("runs", "show", "approval-1"));
        c.put("showJson", cli("runs", "show", "approval-1", "--json"));
        c.put("showNap", cli("runs", "show", "nap-1"));
        c.put("showFailed", cli("runs", "show", "checkout-1"));
        c.put("timeline", cli("runs", "timeline", "greet-1"));
        c.put("timelineJson", cli("runs", "timeline", "greet-1", "--json"));
        c.put(
                "export",
                cli(
                        "runs",
                        "export",
                        "greet-1",
                        "approval-1",
                        "--out",
                        dir.resolve("named").toString()));
        c.put(
                "exportAll",
                cli("runs", "export", "--all", "--out", dir.resolve("all").toString()));
        c.put("exportWaiting", cli("runs", "export", "--status", "WAITING", "--json", "--out", dir + "/waiting"));
        c.put("verifyOne", cli("verify", "greet-1"));
        c.put("verifyAll", cli("verify", "--all", "--json"));
        c.put("schedules", cli("schedules", "list"));
        c.put("pause", cli("schedules", "pause", "hourly"));
        c.put("scheduleJson", cli("schedules", "show", "hourly", "--json"));
        c.put("resume", cli("schedules", "resume", "hourly"));
        c.put("trigger", cli("schedules", "trigger", "hourly"));
        c.put("showAfterTrigger", cli("schedules", "show", "hourly"));
        c.put("signalUrl", cli("signal-url", "approval-2", "approval", "--ttl", "PT1H"));
        c.put("signal", cli("signal", "approval-1", "approval", "--json", "{\"by\":\"ops\"}"));
        c.put("cancel", cli("cancel", "approval-2", "--reason", "not needed"));
        c.put("retryWrongStep", cli("retry", "checkout-1", "--from-step", "ship"));
        c.put("retry", cli("retry", "checkout-1", "--from-step", "charge", "--reason", "card fixed"));
        c.put("retryNotFailed", cli("retry", "greet-1"));
        c.put("unknownRun", cli("runs", "show", "nope"));
        c.put("signalUnknown", cli("signal", "nope", "approval", "--json", "{}"));
        c.put("badJson", cli("signal", "nap-1", "approval", "--json", "{\"by\":"));
        c.put("signalFinished", cli("signal", "greet-1", "approval", "--json", "{}"));
        c.put("unknownSchedule", cli("schedules", "pause", "nightly"));
        c.put("queues", cli("queues", "list"));
        c.put("queueSet", cli("queues", "set", "ledger", "--concurrency", "3", "--rate", "20/PT1S"));
        c.put("queueJson", cli("queues", "show", "ledger", "--json"));
        c.put("queueNew", cli("queues", "set", "imports", "--key-concurrency", "2"));
        c.put("queueNoRate", cli("queues", "set", "ledger", "--no-rate"));
        c.put("queueUnknown", cli("queues", "show", "nope"));
        c.put("queueBadRate", cli("queues", "set", "ledger", "--rate", "fast"));
        c.put("queueNegative", cli("queues", "set", "ledger", "--concurrency", "-1"));
        c.put("queueNothing", cli("queues", "set", "ledger"));
        c.put("queueBoth", cli("queues", "set", "ledger", "--rate", "5/PT1S", "--no-rate"));
        c.putAll(extraCommands());
        return c;
    }

    /** A command line: the connection, then {@code args}. */
    List<String> cli(String... args) {
        List<String> out = new ArrayList<>(connection());
        out.addAll(List.of(args));
        return out;
    }

    CliResult result(String name) {
        return results.get(name);
    }

    /** A command that did what it was asked: exit 0, nothing on standard error. */
    CliResult ok(String name) {
        CliResult r = result(name);
        assertThat(r.exit()).as("%s: %s", name, r).isZero();
        assertThat(r.err()).as("%s: %s", name, r).isEmpty();
        return r;
    }

    /** A command that failed as a user should see it: its exit status, and one line naming what was wrong. */
    String failed(String name, int exit) {
        CliResult r = result(name);
        assertThat(r.exit()).as("%s: %s", name, r).isEqualTo(exit);
        assertThat(r.errLines()).as("%s: %s", name, r).hasSize(1);
        assertThat(r.out()).as("%s: %s", name, r).isEmpty();
        return r.errLines()[0];
    }

    @Test
    void listsTheRunsWithStatusAndSearchAttributes() {
        String out = ok("list").out();
        assertThat(out.lines().findFirst().orElseThrow()).startsWith("RUN").contains("STATUS", "ATTRIBUTES");
        assertThat(out)
                .containsPattern("greet-1 +greet +COMPLETED .* customer=acme")
                .containsPattern("approval-1 +approval +WAITING")
                .containsPattern("checkout-1 +checkout +FAILED")
                .containsPattern("nap-1 +nap +SLEEPING");
    }

    @Test
    void filtersAsTheApiDoes() throws IOException {
        JsonNode waiting = JSON.readTree(ok("waitingJson").out());
        List<String> ids = new ArrayList<>();
        waiting.path("runs").forEach(r -> ids.add(r.path("runId").asText()));
        assertThat(ids).containsExactlyInAnyOrder("approval-1", "approval-2");
        assertThat(waiting.path("runs")
                        .get(0)
                        .path("attributes")
                        .path("customer")
                        .asText())
                .isEqualTo("beta");
        assertThat(ok("acme").out()).contains("greet-1").doesNotContain("approval-1");
        String paged = ok("paged").out();
        assertThat(paged.lines().filter(l -> l.matches("\\S+-\\d .*"))).hasSize(2);
        assertThat(paged).containsPattern("more: --cursor \\S+");
    }

    @Test
    void showsWhereARunStands() throws IOException {
        String show = ok("show").out();
        assertThat(show)
                .containsPattern("status +WAITING")
                .containsPattern("waits on +signal 'approval'")
                .containsPattern("attributes +customer=beta")
                .containsPattern("key +beta");
        assertThat(ok("showNap").out())
                .containsPattern("waits on +timer 'nap' at ")
                .as("a run started without an ordering key shows none")
                .doesNotContainPattern("(?m)^key ");
        assertThat(ok("showFailed").out())
                .containsPattern("status +FAILED")
                .contains("java.lang.IllegalStateException: card declined for order 9");
        JsonNode json = JSON.readTree(ok("showJson").out());
        assertThat(json.path("run").path("status").asText()).isEqualTo("WAITING");
        assertThat(json.path("run").path("key").asText()).isEqualTo("beta");
        assertThat(json.path("waits").get(0).path("kind").asText()).isEqualTo("signal");
        assertThat(json.path("waits").get(0).path("name").asText()).isEqualTo("approval");
    }

    @Test
    void printsTheTimelineAsTheRuntimeRendersIt() {
        assertThat(ok("timeline").out()).isEqualTo(greetTimeline).contains("StepCompleted", "hello ada");
        assertThat(new JsonCodec().decodeEvents(ok("timelineJson").out())).isEqualTo(greetEvents);
    }

    @Test
    void exportsSavedHistoriesThatReadBackAsTheLog() throws IOException {
        assertThat(ok("export").out()).startsWith("exported 2 runs to ");
        JsonCodec codec = new JsonCodec();
        Path named = dir.resolve("named");
        assertThat(codec.decodeEvents(Files.readString(named.resolve("greet-1-history.json"))))
                .isEqualTo(greetEvents)
                .isEqualTo(wf.events("greet-1"));
        // the approval has gone on since: what was exported is the start of its log
        List<Event> exported = codec.decodeEvents(Files.readString(named.resolve("approval-1-history.json")));
        assertThat(wf.events("approval-1")).startsWith(exported.toArray(Event[]::new));
        ok("exportAll");
        assertThat(files(dir.resolve("all")))
                .contains(
                        "greet-1-history.json",
                        "approval-1-history.json",
                        "approval-2-history.json",
                        "checkout-1-history.json",
                        "nap-1-history.json");
        JsonNode waiting = JSON.readTree(ok("exportWaiting").out());
        assertThat(waiting.path("files")).hasSize(2);
        assertThat(files(dir.resolve("waiting")))
                .containsExactlyInAnyOrder("approval-1-history.json", "approval-2-history.json");
    }

    @Test
    void verifiesHashChains() throws IOException {
        assertThat(ok("verifyOne").out()).startsWith("run greet-1: chain holds (");
        JsonNode all = JSON.readTree(ok("verifyAll").out());
        assertThat(all.path("checked").asLong()).isGreaterThanOrEqualTo(5);
        assertThat(all.path("broken").asLong()).isZero();
    }

    @Test
    void pausesResumesAndTriggersSchedules() throws IOException {
        assertThat(ok("schedules").out()).containsPattern("hourly +greet +every PT1H +Z +no");
        assertThat(ok("pause").out()).containsPattern("paused +yes");
        assertThat(JSON.readTree(ok("scheduleJson").out()).path("paused").asBoolean())
                .isTrue();
        assertThat(ok("resume").out()).containsPattern("paused +no");
        String started = ok("trigger").out().strip();
        assertThat(started).startsWith("started run hourly@");
        String runId = started.substring("started run ".length());
        TestWorkflows.awaitStatus(wf, runId, RunStatus.COMPLETED);
        assertThat(wf.schedules().describe("hourly").paused()).isFalse();
        String fired = runId.substring("hourly@".length());
        assertThat(ok("showAfterTrigger").out())
                .as("the fire time as exactly as the run id names it")
                .contains("last fire  " + fired + "\n")
                .containsPattern("last run   " + Pattern.quote(runId) + " \\((PENDING|RUNNING|COMPLETED)\\)\n");
    }

    @Test
    void listsShowsAndSetsQueuesLimitsRecordingWhoSetThem() throws IOException {
        assertThat(ok("queues").out()).containsPattern("ledger +1 +no limit +1 +none +0 +0 +0 +application");
        assertThat(ok("queueSet").out())
                .containsPattern("concurrency +3\n")
                .containsPattern("per key +1\n")
                .containsPattern("rate +20 per PT1S\n")
                .containsPattern("set by +" + actor() + "\n");
        JsonNode ledger = JSON.readTree(ok("queueJson").out());
        assertThat(ledger.path("concurrency").asInt()).isEqualTo(3);
        assertThat(ledger.path("rateStarts").asInt()).isEqualTo(20);
        assertThat(ledger.path("ratePer").asText()).isEqualTo("PT1S");
        assertThat(ledger.path("changedBy").asText()).isEqualTo(actor());
        assertThat(ok("queueNew").out())
                .containsPattern("queue +imports\n")
                .containsPattern("concurrency +no limit\n")
                .containsPattern("per key +2\n");
        assertThat(ok("queueNoRate").out())
                .as("the limits not given are kept")
                .containsPattern("concurrency +3\n")
                .containsPattern("rate +none\n");

        assertThat(failed("queueUnknown", ExitCodes.NOT_FOUND)).isEqualTo("worldflow: queue 'nope' does not exist");
        assertThat(failed("queueBadRate", ExitCodes.USAGE))
                .isEqualTo("worldflow: --rate must be STARTS/PERIOD with an ISO-8601 period, such as 20/PT1S, was"
                        + " 'fast'");
        assertThat(failed("queueNegative", ExitCodes.USAGE))
                .isEqualTo("worldflow: concurrency must be 0 (no limit) to 1000, was -1");
        assertThat(failed("queueNothing", ExitCodes.USAGE)).startsWith("worldflow: give at least one limit to set");
        assertThat(failed("queueBoth", ExitCodes.USAGE)).isEqualTo("worldflow: give --rate or --no-rate, not both");
        QueueSpec stored = wf.queues().describe("ledger").orElseThrow().spec();
        assertThat(stored.concurrency())
                .as("the refused commands changed nothing")
                .isEqualTo(3);
        assertThat(stored.rateLimit()).isNull();
        assertThat(wf.queues().describe("ledger").orElseThrow().changedBy()).isEqualTo(actor());
    }

    @Test
    void aSignalReachesTheWaitingRunWhichCompletes() {
        assertThat(ok("signal").out()).isEqualTo("signal 'approval' sent to run approval-1\n");
        RunInfo done = TestWorkflows.awaitStatus(wf, "approval-1", RunStatus.COMPLETED);
        assertThat(done.output().json()).contains("prepared invoice 7, approved by ops");
    }

    @Test
    void makesSignalUrls() {
        assertThat(ok("signalUrl").out().strip()).containsPattern("^https?://.+/signals/approval-2/approval\\?token=");
    }

    @Test
    void cancelsARunRecordingWhoAndWhy() {
        ok("cancel");
        TestWorkflows.awaitStatus(wf, "approval-2", RunStatus.CANCELED);
        WorkflowCancelRequested request = wf.events("approval-2").stream()
                .filter(WorkflowCancelRequested.class::isInstance)
                .map(WorkflowCancelRequested.class::cast)
                .findFirst()
                .orElseThrow();
        assertThat(request.reason()).isEqualTo("not needed");
        assertThat(request.actor()).isEqualTo(actor());
    }

    @Test
    void retriesAFailedRunFromItsFailedStep() {
        assertThat(failed("retryWrongStep", ExitCodes.USAGE))
                .isEqualTo("worldflow: run checkout-1 would be retried from step 'charge', not from step 'ship': a"
                        + " retry starts where the run failed");
        assertThat(ok("retry").out()).startsWith("run checkout-1 retried from step 'charge'");
        RunInfo done = TestWorkflows.awaitStatus(wf, "checkout-1", RunStatus.COMPLETED);
        assertThat(done.output().json()).contains("charged order 9");
    }

    @Test
    void saysWhatWasWrongInOneLineWithItsExitStatus() {
        assertThat(failed("unknownRun", ExitCodes.NOT_FOUND)).isEqualTo("worldflow: run 'nope' does not exist");
        assertThat(failed("signalUnknown", ExitCodes.NOT_FOUND)).isEqualTo("worldflow: run 'nope' does not exist");
        assertThat(failed("badJson", ExitCodes.USAGE)).startsWith("worldflow: --json is not valid JSON: ");
        assertThat(failed("retryNotFailed", ExitCodes.PROBLEM))
                .contains("greet-1")
                .contains("COMPLETED");
        assertThat(failed("signalFinished", ExitCodes.PROBLEM)).contains("greet-1");
        assertThat(failed("unknownSchedule", ExitCodes.NOT_FOUND))
                .isEqualTo("worldflow: schedule 'nightly' does not exist");
    }

    static Set<String> files(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        }
    }
}
