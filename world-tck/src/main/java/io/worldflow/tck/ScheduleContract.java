package io.worldflow.tck;

import io.worldflow.CatchUpPolicy;
import io.worldflow.OverlapPolicy;
import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.ScheduleExistsException;
import io.worldflow.ScheduleInfo;
import io.worldflow.ScheduleNotFoundException;
import io.worldflow.ScheduleSpec;
import io.worldflow.Workflow;
import io.worldflow.annotation.Scheduled;
import io.worldflow.annotation.WorkflowMethod;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Schedules end to end: each fire time starts one run however many workers are up, the overlap and catch-up policies
 * hold, pause, resume, trigger, backfill and delete do what they say, a declared schedule is written once, and a spec
 * that cannot be a schedule is refused with nothing stored.
 */
public abstract class ScheduleContract extends WorkflowContractSupport {

    protected ScheduleContract(WorldConformanceKit kit) {
        super(kit);
    }

    private final List<Worldflow> others = new ArrayList<>();

    @AfterEach
    void closeOthers() {
        others.forEach(Worldflow::close);
    }

    private final Workflow<String, String> report = Workflow.define(
            "tck.sched.report", String.class, (ctx, in) -> ctx.step("write", () -> in + " #" + bump("report")));

    /** Sleeps an hour: a run that goes on across the next fire times. */
    private final Workflow<String, String> slow = Workflow.define("tck.sched.slow", String.class, (ctx, in) -> {
        ctx.step("begin", () -> bump("slow " + in));
        ctx.sleep("long", Duration.ofHours(1));
        return "done";
    });

    /** The runs of schedule {@code id}, by id. */
    private List<String> runsOf(String id) {
        return wf.runs(RunQuery.all().withLimit(500)).runs().stream()
                .map(RunInfo::runId)
                .filter(r -> r.startsWith(id + "@"))
                .sorted()
                .toList();
    }

    private String runAt(String id, Instant fireAt) {
        return id + "@" + fireAt;
    }

    /** The next whole ten seconds after now: the fire times of {@code "*\/10 * * * * ?"}. */
    private Instant nextTen() {
        long s = clock.instant().getEpochSecond();
        return Instant.ofEpochSecond((s / 10 + 1) * 10);
    }

    @Test
    void eachFireTimeStartsOneRunEvenWithTwoWorkersUp() {
        worldflow(report);
        Worldflow other = Worldflow.builder()
                .world(new SharedWorld(world))
                .clock(clock)
                .register(report)
                .build();
        others.add(other);
        other.startWorker(workerOptions().withWorkerId("tck-other"));
        Instant first = nextTen();

        ScheduleInfo created = wf.schedules().create(ScheduleSpec.cron("tens", "*/10 * * * * ?", report, "tick"));
        assertThat(created.nextFireAt()).isEqualTo(first);
        assertThat(created.upcoming()).startsWith(first, first.plusSeconds(10));

        for (int i = 0; i < 3; i++) {
            clock.set(first.plusSeconds(10L * i));
            awaitStatus(runAt("tens", first.plusSeconds(10L * i)), RunStatus.COMPLETED);
        }

        assertThat(runsOf("tens"))
                .containsExactly(
                        runAt("tens", first),
                        runAt("tens", first.plusSeconds(10)),
                        runAt("tens", first.plusSeconds(20)));
        assertThat(count("report")).isEqualTo(3);
        for (String run : runsOf("tens")) {
            assertThat(eventsOf(run, StepCompleted.class)).hasSize(1);
        }
        assertThat(eventsOf(runAt("tens", first.plusSeconds(10)), WorkflowStarted.class))
                .as("the timeline says which schedule and fire time started the run")
                .singleElement()
                .satisfies(s -> {
                    assertThat(s.schedule()).isEqualTo("tens");
                    assertThat(s.scheduledFor()).isEqualTo(first.plusSeconds(10));
                });
        // a fire is recorded in the schedule just after its run is created, so a quick run may end before that
        awaitSchedule("tens", s -> runAt("tens", first.plusSeconds(20)).equals(s.lastRunId()));
        assertThat(wf.schedules().describe("tens").nextFireAt()).isEqualTo(first.plusSeconds(30));
    }

    @Test
    void whileAPreviousRunGoesOnSkipStartsNothingAndCancelPreviousCancelsIt() {
        worldflow(slow);
        Instant first = nextTen();
        wf.schedules().create(ScheduleSpec.cron("skip", "*/10 * * * * ?", slow, "skip"));
        wf.schedules()
                .create(ScheduleSpec.cron("cancel", "*/10 * * * * ?", slow, "cancel")
                        .withOverlap(OverlapPolicy.CANCEL_PREVIOUS));

        clock.set(first);
        awaitStatus(runAt("skip", first), RunStatus.SLEEPING);
        awaitStatus(runAt("cancel", first), RunStatus.SLEEPING);
        clock.set(first.plusSeconds(10));
        awaitStatus(runAt("cancel", first.plusSeconds(10)), RunStatus.SLEEPING);

        awaitStatus(runAt("cancel", first), RunStatus.CANCELED);
        assertThat(eventsOf(runAt("cancel", first), WorkflowCancelRequested.class))
                .singleElement()
                .satisfies(c -> assertThat(c.reason()).contains("schedule 'cancel'", "CANCEL_PREVIOUS"));
        awaitSchedule("skip", s -> first.plusSeconds(20).equals(s.nextFireAt()));
        assertThat(runsOf("skip")).containsExactly(runAt("skip", first));
        assertThat(wf.schedules().describe("skip").lastRunId()).isEqualTo(runAt("skip", first));
    }

    @Test
    void fireTimesMissedWhileNoWorkerWasUpStartWhatTheCatchUpPolicySays() {
        wf = Worldflow.builder().world(world).clock(clock).register(report).build();
        Instant first = nextTen();
        wf.schedules().create(ScheduleSpec.cron("latest", "*/10 * * * * ?", report, "l"));
        wf.schedules()
                .create(ScheduleSpec.cron("all", "*/10 * * * * ?", report, "a")
                        .withOverlap(OverlapPolicy.ALLOW_ALL)
                        .withCatchUp(CatchUpPolicy.ALL, Duration.ofMinutes(10)));
        wf.schedules()
                .create(ScheduleSpec.cron("none", "*/10 * * * * ?", report, "n")
                        .withOverlap(OverlapPolicy.ALLOW_ALL)
                        .withCatchUp(CatchUpPolicy.NONE, Duration.ofDays(1)));
        wf.schedules()
                .create(ScheduleSpec.cron("turns", "*/10 * * * * ?", report, "t")
                        .withCatchUp(CatchUpPolicy.ALL, Duration.ofMinutes(1)));
        // five minutes without a worker: thirty fire times, the last of them five seconds past
        clock.set(first.plus(Duration.ofMinutes(5)).minusSeconds(10).plusSeconds(5));
        Instant lastOnTime = first.plus(Duration.ofMinutes(5)).minusSeconds(10);

        wf.startWorker(workerOptions());

        awaitStatus(runAt("none", lastOnTime), RunStatus.COMPLETED);
        awaitStatus(runAt("latest", lastOnTime), RunStatus.COMPLETED);
        awaitStatus(runAt("all", first), RunStatus.COMPLETED);
        awaitSchedule("all", s -> lastOnTime.equals(s.lastFireAt()));
        assertThat(runsOf("all")).hasSize(30);
        assertThat(runsOf("none")).as("the one on time alone").containsExactly(runAt("none", lastOnTime));
        awaitSchedule("latest", s -> lastOnTime.plusSeconds(10).equals(s.nextFireAt()));
        assertThat(runsOf("latest"))
                .as("the latest fire time alone, not one per fire time less than a minute past")
                .containsExactly(runAt("latest", lastOnTime));

        // catch-up ALL without overlap: each fire time within the window gets its run, one after the other
        List<Instant> inWindow = new java.util.ArrayList<>();
        for (Instant f = first.plus(Duration.ofMinutes(4)); !f.isAfter(lastOnTime); f = f.plusSeconds(10)) {
            inWindow.add(f);
        }
        for (int k = 0; k < inWindow.size(); k++) {
            awaitStatus(runAt("turns", inWindow.get(k)), RunStatus.COMPLETED);
            pause(150);
            assertThat(runsOf("turns"))
                    .as("the runs after the one just ended wait for a look")
                    .hasSize(k + 1);
            clock.set(clock.instant().plusSeconds(1)); // the next look, a second later
        }
        assertThat(runsOf("turns").subList(0, inWindow.size()))
                .containsExactlyElementsOf(
                        inWindow.stream().map(f -> runAt("turns", f)).toList());
    }

    @Test
    void pauseResumeTriggerBackfillAndDelete() {
        worldflow(report);
        Instant first = nextTen();
        wf.schedules().create(ScheduleSpec.cron("ops", "*/10 * * * * ?", report, "ops"));

        assertThat(wf.schedules().pause("ops").paused()).isTrue();
        clock.set(first.plusSeconds(25));
        assertThat(wf.schedules().describe("ops").nextFireAt()).isNull();
        pause(200);
        assertThat(runsOf("ops")).as("nothing while paused").isEmpty();

        ScheduleInfo resumed = wf.schedules().resume("ops");
        assertThat(resumed.nextFireAt()).as("from the next fire time after now").isEqualTo(first.plusSeconds(30));

        Instant now = clock.instant();
        assertThat(wf.schedules().trigger("ops")).contains(runAt("ops", now));
        awaitStatus(runAt("ops", now), RunStatus.COMPLETED);

        List<String> backfilled = wf.schedules().backfill("ops", first.minusSeconds(60), first.minusSeconds(30));
        assertThat(backfilled)
                .containsExactly(
                        runAt("ops", first.minusSeconds(60)),
                        runAt("ops", first.minusSeconds(50)),
                        runAt("ops", first.minusSeconds(40)),
                        runAt("ops", first.minusSeconds(30)));
        backfilled.forEach(r -> awaitStatus(r, RunStatus.COMPLETED));
        assertThat(wf.schedules().backfill("ops", first.minusSeconds(60), first.minusSeconds(30)))
                .as("asked again, the same runs: none starts twice")
                .isEqualTo(backfilled);
        assertThat(count("report")).isEqualTo(5);

        wf.schedules().delete("ops");
        assertThatThrownBy(() -> wf.schedules().describe("ops")).isInstanceOf(ScheduleNotFoundException.class);
        assertThatThrownBy(() -> wf.schedules().delete("ops")).isInstanceOf(ScheduleNotFoundException.class);
        clock.set(first.plusSeconds(40));
        pause(200);
        assertThat(runsOf("ops")).as("nothing after delete").hasSize(5);
    }

    @Test
    void aDeclaredScheduleIsWrittenOnceByEveryWorkerThatDeclaresIt() {
        ScheduleSpec nightly =
                ScheduleSpec.cron("nightly", "0 0 2 * * ?", report, "night").inZone("Europe/Berlin");
        wf = Worldflow.builder()
                .world(world)
                .clock(clock)
                .register(report)
                .schedule(nightly)
                .build();
        Worldflow again = Worldflow.builder()
                .world(new SharedWorld(world))
                .clock(clock)
                .register(report)
                .schedule(nightly)
                .build();
        others.add(again);

        assertThat(world.schedules().get("nightly").orElseThrow().version()).isEqualTo(1);
        Worldflow changed = Worldflow.builder()
                .world(new SharedWorld(world))
                .clock(clock)
                .register(report)
                .schedule(nightly.withInput("changed"))
                .build();
        others.add(changed);
        assertThat(wf.schedules().describe("nightly").spec().input()).isEqualTo(codec.encode("changed", "input"));
        assertThat(wf.schedules().list()).extracting(ScheduleInfo::id).containsExactly("nightly");
    }

    @Test
    void aSpecThatCannotBeAScheduleIsRefusedNamingWhatIsWrongAndNothingIsStored() {
        worldflow(report);
        assertThatThrownBy(() -> wf.schedules().create(ScheduleSpec.cron("bad", "0 0 25 * * ?", report, "x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cron expression '0 0 25 * * ?'");
        assertThatThrownBy(() ->
                        ScheduleSpec.cron("bad", "0 0 2 * * ?", report, "x").inZone("Mars/Olympus"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("zone 'Mars/Olympus'");
        assertThatThrownBy(() -> ScheduleSpec.cron("bad", "0 0 2 * * ?", report, "x")
                        .startingAt(clock.instant())
                        .endingAt(clock.instant().minusSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("endAt");
        assertThatThrownBy(
                        () -> wf.schedules().create(ScheduleSpec.cron("bad", "0 0 2 * * ?", "tck.sched.unknown", "x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("workflow 'tck.sched.unknown'");
        assertThatThrownBy(() -> ScheduleSpec.every("bad", Duration.ofMillis(10), report, "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("every");
        assertThatThrownBy(() -> wf.schedules().create(ScheduleSpec.cron("bad", "0 0 0 30 2 ?", report, "x")))
                .as("the 30th of February")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("would never fire");
        assertThatThrownBy(() -> ScheduleSpec.every("bad", Duration.ofSeconds(2), report, "x")
                        .withJitter(Duration.ofSeconds(30)))
                .as("a run delayed past the next fire time")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jitter must be less than the interval");
        assertThat(wf.schedules().list()).isEmpty();

        wf.schedules().create(ScheduleSpec.cron("taken", "0 0 2 * * ?", report, "x"));
        assertThatThrownBy(() -> wf.schedules().create(ScheduleSpec.cron("taken", "0 0 3 * * ?", report, "y")))
                .isInstanceOf(ScheduleExistsException.class);
        assertThat(wf.schedules().describe("taken").spec().cron()).isEqualTo("0 0 2 * * ?");
        assertThatThrownBy(() -> wf.schedules().pause("missing")).isInstanceOf(ScheduleNotFoundException.class);
    }

    @Test
    void aScheduleGoesOnAfterItsWorkerRestarts() {
        worldflow(report);
        Instant first = nextTen();
        wf.schedules().create(ScheduleSpec.cron("kept", "*/10 * * * * ?", report, "k"));
        clock.set(first);
        awaitStatus(runAt("kept", first), RunStatus.COMPLETED);

        restart(report);
        clock.set(first.plusSeconds(10));

        awaitStatus(runAt("kept", first.plusSeconds(10)), RunStatus.COMPLETED);
        assertThat(runsOf("kept")).hasSize(2);
    }

    /** A workflow method with the schedule it declares. */
    public static class Digest {
        @WorkflowMethod("tck.sched.digest")
        @Scheduled(id = "digest", cron = "*/10 * * * * ?", zone = "Europe/Berlin", input = "\"weekly\"")
        public String digest(String kind) {
            return kind + " digest";
        }
    }

    /** A workflow method whose schedule cannot be one: an interval that is not ISO-8601. */
    public static class BadDigest {
        @WorkflowMethod("tck.sched.bad-digest")
        @Scheduled(id = "bad-digest", every = "15 minutes")
        public String digest(String kind) {
            return kind;
        }
    }

    @Test
    void anAnnotatedWorkflowMethodDeclaresItsSchedule() {
        wf = Worldflow.builder()
                .world(world)
                .clock(clock)
                .register(new Digest())
                .build();
        wf.startWorker(workerOptions());
        Instant first = nextTen();

        ScheduleInfo info = wf.schedules().describe("digest");
        assertThat(info.spec().cron()).isEqualTo("*/10 * * * * ?");
        assertThat(info.spec().zone().getId()).isEqualTo("Europe/Berlin");
        assertThat(info.nextFireAt()).isEqualTo(first);
        clock.set(first);
        assertThat(awaitStatus(runAt("digest", first), RunStatus.COMPLETED)
                        .output()
                        .json())
                .isEqualTo("\"weekly digest\"");

        assertThatThrownBy(() -> Worldflow.builder()
                        .world(new SharedWorld(world))
                        .clock(clock)
                        .register(new BadDigest())
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("schedule 'bad-digest'")
                .hasMessageContaining("every '15 minutes'");
        assertThat(world.schedules().get("bad-digest")).isEmpty();
    }

    private void awaitSchedule(String id, java.util.function.Predicate<ScheduleInfo> condition) {
        long end = System.nanoTime() + WAIT.toNanos();
        while (!condition.test(wf.schedules().describe(id))) {
            if (System.nanoTime() > end) {
                throw new AssertionError("schedule " + id + " did not get there: "
                        + wf.schedules().describe(id));
            }
            pause(5);
        }
    }
}
