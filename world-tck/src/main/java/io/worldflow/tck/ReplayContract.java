package io.worldflow.tck;

import io.worldflow.NonDeterministicWorkflowException;
import io.worldflow.RetryPolicy;
import io.worldflow.RunHandle;
import io.worldflow.RunStatus;
import io.worldflow.SearchAttributes;
import io.worldflow.SearchKey;
import io.worldflow.StartOptions;
import io.worldflow.StepOptions;
import io.worldflow.Workflow;
import io.worldflow.WorldflowException;
import io.worldflow.event.Event;
import io.worldflow.runtime.WorkflowReplayer;
import io.worldflow.runtime.WorkflowReplayer.Outcome;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The replayer ({@link WorkflowReplayer}) over histories this world wrote: every primitive's history replays with
 * the code that wrote it, read back from the world and from both saved forms; a changed code is found where it
 * first differs, named by event and primitive; a replay runs no step and writes nothing.
 */
public abstract class ReplayContract extends WorkflowContractSupport {

    static final SearchKey<String> STAGE = SearchKey.forString("stage");

    protected ReplayContract(WorldConformanceKit kit) {
        super(kit);
    }

    private final Workflow<String, String> kid =
            Workflow.define("tck.replay.kid", String.class, (ctx, in) -> ctx.step("greet", () -> "hi " + in));

    /** Every primitive once, in the original form or with one {@code change}. */
    private Workflow<String, String> every(String change) {
        return Workflow.define("tck.replay.every", String.class, (ctx, in) -> {
            ctx.upsertSearchAttributes(SearchAttributes.of(STAGE, "started"));
            String a = ctx.step(change.equals("renamed") ? "charge" : "reserve", () -> "a" + bump("reserve"));
            String f = ctx.step("flaky", StepOptions.retry(RetryPolicy.fixed(3, Duration.ofMinutes(1))), () -> {
                if (bump("flaky") == 1) {
                    throw new IllegalStateException("first attempt fails");
                }
                return "f";
            });
            ctx.sleep("nap", Duration.ofHours(1));
            String approval = ctx.awaitSignal("approve", String.class);
            List<Integer> parts = ctx.parallel("split", List.of(1, 2), (b, n) -> b.step("part", () -> n * 10));
            String token = ctx.sideEffect("token", () -> "t" + bump("token"));
            int v = change.equals("narrowed") ? ctx.version("pricing", 3, 4) : ctx.version("pricing", 1, 2);
            String child = ctx.child("kid", kid, in);
            Object first = ctx.race("first", ctx.timer("late", Duration.ofDays(1)), ctx.stepAsync("quick", () -> "q"))
                    .get();
            String extra = change.equals("added") ? ctx.step("extra", () -> "x") : "";
            if (change.equals("fails")) {
                throw new IllegalStateException("the code now fails");
            }
            return a + f + approval + parts + token + v + child + first + extra;
        });
    }

    /** Runs {@link #every} to its end on the world; its history. */
    private List<Event> completedHistory() {
        Workflow<String, String> w = every("");
        worldflow(w, kid);
        RunHandle<String> run = wf.start(w, "x", StartOptions.id("replay-1"));
        awaitStatus(run.id(), RunStatus.SLEEPING); // the flaky step's retry
        clock.advance(Duration.ofMinutes(1));
        awaitEvent(run.id(), io.worldflow.event.TimerScheduled.class);
        awaitStatus(run.id(), RunStatus.SLEEPING);
        clock.advance(Duration.ofHours(1));
        awaitStatus(run.id(), RunStatus.WAITING);
        wf.signal(run.id(), "approve", "ok");
        assertThat(run.result(WAIT)).isEqualTo("a1fok[10, 20]t12hi xq");
        return wf.events(run.id());
    }

    @Test
    void everyPrimitivesHistoryReplaysToTheSameEndFromTheWorldAndFromBothSavedForms() {
        List<Event> history = completedHistory();
        int stepsRun = count("reserve") + count("flaky") + count("token");

        WorkflowReplayer.Result fromWorld = WorkflowReplayer.replay(every(""), history);
        assertThat(fromWorld.outcome()).as(fromWorld.toString()).isEqualTo(Outcome.MATCHED);
        assertThat(fromWorld.events()).isEqualTo(history.size());

        List<Event> saved = WorkflowReplayer.parse(wf.codec().encodeEvents(history));
        assertThat(WorkflowReplayer.replay(every(""), saved).outcome()).isEqualTo(Outcome.MATCHED);
        List<Event> chained = WorkflowReplayer.parse(wf.audit().exportLog("replay-1"));
        assertThat(chained).isEqualTo(history);
        assertThat(WorkflowReplayer.replay(every(""), chained).outcome()).isEqualTo(Outcome.MATCHED);

        assertThat(count("reserve") + count("flaky") + count("token"))
                .as("a replay runs no step and computes no value")
                .isEqualTo(stepsRun);
        assertThat(wf.events("replay-1")).isEqualTo(history);
    }

    /** Scopes, a signal's timeout, a timed step, a cleanup after cancel and a successor. */
    private final Workflow<Integer, String> more = Workflow.define("tck.replay.more", Integer.class, (ctx, round) -> {
        int bg = ctx.async("bg", scope -> scope.step("inner", () -> 1)).get();
        String kept = ctx.detached("log", scope -> scope.step("note", () -> "n"));
        java.util.Optional<String> maybe = ctx.awaitSignal("maybe", String.class, Duration.ofMinutes(5));
        String timed = ctx.step("timed", StepOptions.defaults().withTimeout(Duration.ofMinutes(1)), () -> "t");
        if (round == 0) {
            return ctx.continueAsNew(1);
        }
        try {
            ctx.sleep("rest", Duration.ofDays(1));
        } catch (io.worldflow.CanceledException e) {
            ctx.detached("cleanup", scope -> scope.step("release", () -> "released"));
            throw e;
        }
        return bg + kept + maybe.orElse("-") + timed;
    });

    @Test
    void scopesTimeoutsCleanupsAfterCancelAndSuccessorsReplayToTheSameEnd() {
        worldflow(more);
        wf.start(more, 0, StartOptions.id("replay-more"));
        awaitStatus("replay-more", RunStatus.WAITING);
        clock.advance(Duration.ofMinutes(5));
        awaitStatus("replay-more", RunStatus.COMPLETED);
        String successor = wf.runs(io.worldflow.RunQuery.all().withWorkflow("tck.replay.more")).runs().stream()
                .map(io.worldflow.RunInfo::runId)
                .filter(id -> !id.equals("replay-more"))
                .findFirst()
                .orElseThrow();
        awaitStatus(successor, RunStatus.WAITING);
        clock.advance(Duration.ofMinutes(5));
        awaitEvent(successor, io.worldflow.event.TimerScheduled.class);
        awaitStatus(successor, RunStatus.SLEEPING);
        wf.cancel(successor, "customer left");
        awaitStatus(successor, RunStatus.CANCELED);

        WorkflowReplayer replayer = WorkflowReplayer.of(List.of(more));
        for (String id : List.of("replay-more", successor)) {
            List<Event> history = wf.events(id);
            WorkflowReplayer.Result r = replayer.replay(history);
            assertThat(r.outcome()).as(r.toString()).isEqualTo(Outcome.MATCHED);
            assertThat(r.detail()).contains(id.equals(successor) ? "WorkflowCanceled" : "WorkflowContinuedAsNew");
        }
        assertThat(eventsOf(successor, io.worldflow.event.StepCompleted.class))
                .extracting(io.worldflow.event.StepCompleted::stepId)
                .contains("cleanup/release");
    }

    @Test
    void aChangedCodeIsFoundWhereItFirstDiffersNamedByEventAndPrimitive() {
        List<Event> history = completedHistory();

        assertThatThrownBy(() -> WorkflowReplayer.replay(every("renamed"), history))
                .isInstanceOf(NonDeterministicWorkflowException.class)
                .hasMessageContaining("primitive #2 of the workflow is step 'reserve' in the history (from seq ")
                .hasMessageContaining("the code now asks for step 'charge'");
        assertThatThrownBy(() -> WorkflowReplayer.replay(every("narrowed"), history))
                .isInstanceOf(NonDeterministicWorkflowException.class)
                .hasMessageContaining("version of change 'pricing' is 2 in the history, outside the range 3..4");
        assertThatThrownBy(() -> WorkflowReplayer.replay(every("added"), history))
                .isInstanceOf(NonDeterministicWorkflowException.class)
                .hasMessageContaining("the history ends with WorkflowCompleted (seq " + (history.size() - 1) + ")")
                .hasMessageContaining("step 'extra'");
        assertThatThrownBy(() -> WorkflowReplayer.replay(every("fails"), history))
                .isInstanceOf(NonDeterministicWorkflowException.class)
                .hasMessageContaining("the code now ends the run with WorkflowFailed");
        // the code that ends before the history does leaves recorded primitives unreached
        Workflow<String, String> shorter = Workflow.define("tck.replay.every", String.class, (ctx, in) -> {
            ctx.upsertSearchAttributes(SearchAttributes.of(STAGE, "started"));
            return ctx.step("reserve", () -> "a");
        });
        assertThatThrownBy(() -> WorkflowReplayer.replay(shorter, history))
                .isInstanceOf(NonDeterministicWorkflowException.class)
                .hasMessageContaining("the workflow returned, but its history holds");
    }

    @Test
    void aRunThatHasNotEndedCatchesUpWithItsHistoryAndNothingIsWrittenOrRun() {
        Workflow<String, String> w = every("");
        worldflow(w, kid);
        RunHandle<String> run = wf.start(w, "x", StartOptions.id("replay-2"));
        awaitStatus(run.id(), RunStatus.SLEEPING);
        List<Event> history = wf.events(run.id());
        int reserved = count("reserve");
        int flaky = count("flaky");

        WorkflowReplayer.Result r = WorkflowReplayer.replay(every(""), history);

        assertThat(r.outcome()).isEqualTo(Outcome.CAUGHT_UP);
        assertThat(r.detail()).contains("would go on");
        assertThat(count("reserve")).isEqualTo(reserved);
        assertThat(count("flaky"))
                .as("the retry due next is not run by a replay")
                .isEqualTo(flaky);
        assertThat(wf.events(run.id())).isEqualTo(history);
        assertThat(world.runQueries().get(run.id()).orElseThrow().status()).isEqualTo(RunStatus.SLEEPING);
        // a code that differs in what it has done so far diverges even though the run goes on
        assertThatThrownBy(() -> WorkflowReplayer.replay(every("renamed"), history))
                .isInstanceOf(NonDeterministicWorkflowException.class)
                .hasMessageContaining("step 'charge'");
    }

    @Test
    void aFolderOfHistoriesIsReplayedEachOnItsOwnAndEveryFailureNamed(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        List<Event> history = completedHistory();
        Files.writeString(dir.resolve("good-history.json"), wf.codec().encodeEvents(history));
        Files.createDirectories(dir.resolve("nested"));
        Files.writeString(dir.resolve("nested/good-log.json"), wf.audit().exportLog("replay-1"));
        Files.writeString(dir.resolve("broken.json"), "{\"not\": \"a history\"}");
        Files.writeString(dir.resolve("notes.txt"), "not read");
        List<Event> kidHistory = wf.events(wf.runs(io.worldflow.RunQuery.all().withWorkflow("tck.replay.kid"))
                .runs()
                .getFirst()
                .runId());
        Files.writeString(dir.resolve("kid.json"), wf.codec().encodeEvents(kidHistory));

        WorkflowReplayer.Report report = WorkflowReplayer.replayAll(List.of(every("renamed"), kid), dir);

        assertThat(report.results()).hasSize(4);
        assertThat(report.results())
                .extracting(r -> Path.of(r.source()).getFileName().toString(), WorkflowReplayer.Result::outcome)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("broken.json", Outcome.FAILED),
                        org.assertj.core.groups.Tuple.tuple("good-history.json", Outcome.DIVERGED),
                        org.assertj.core.groups.Tuple.tuple("kid.json", Outcome.MATCHED),
                        org.assertj.core.groups.Tuple.tuple("good-log.json", Outcome.DIVERGED));
        assertThatThrownBy(report::assertNoDivergence)
                .isInstanceOf(NonDeterministicWorkflowException.class)
                .hasMessageContaining("3 of 4 histories do not replay")
                .hasMessageContaining("broken.json")
                .hasMessageContaining("good-log.json");
        assertThat(WorkflowReplayer.replayAll(List.of(every(""), kid), dir).failures())
                .extracting(r -> Path.of(r.source()).getFileName().toString())
                .containsExactly("broken.json");
    }

    @Test
    void aHistoryThatIsNotAWholeLogOfAKnownWorkflowIsAClearError() {
        List<Event> history = completedHistory();
        assertThatThrownBy(() -> WorkflowReplayer.replay(kid, history))
                .isInstanceOf(WorldflowException.class)
                .hasMessageContaining("workflow 'tck.replay.every' is not among those given");
        assertThatThrownBy(() -> WorkflowReplayer.replay(every(""), history.subList(1, history.size())))
                .isInstanceOf(WorldflowException.class)
                .hasMessageContaining("must begin with WorkflowStarted");
        List<Event> gap = new java.util.ArrayList<>(history);
        gap.remove(3);
        assertThatThrownBy(() -> WorkflowReplayer.replay(every(""), gap))
                .isInstanceOf(WorldflowException.class)
                .hasMessageContaining("event #3 is seq 4");
        assertThatThrownBy(() -> WorkflowReplayer.parse("[{\"type\":\"Nope\"}]"))
                .isInstanceOf(WorldflowException.class)
                .hasMessageContaining("cannot read a timeline");
    }
}
