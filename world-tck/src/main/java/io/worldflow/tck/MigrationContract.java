package io.worldflow.tck;

import io.worldflow.ErrorInfo;
import io.worldflow.RunHandle;
import io.worldflow.RunInfo;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.SearchAttributes;
import io.worldflow.SearchKey;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.WorldMigration;
import io.worldflow.spi.Append;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Runs copied from one store of this world to another ({@link WorldMigration}), as a team moving its runs between
 * worlds does: each run arrives once, with the same log chained to the same head, the same projection, its pending
 * signals, hold and cancellation request, and goes on there where it stopped; a copy made again copies nothing twice,
 * one interrupted goes on from where it stopped, and a run of the same id with another history is refused.
 */
public abstract class MigrationContract extends WorkflowContractSupport {

    static final SearchKey<String> CUSTOMER = SearchKey.forString("customer");

    private World target;

    protected MigrationContract(WorldConformanceKit kit) {
        super(kit);
    }

    @AfterEach
    void closeTarget() {
        if (target != null) {
            target.close();
        }
    }

    /** A fresh store of the world under test, other than the one the runs are in. */
    private World target() {
        String id = "m" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        target = provider().create(new WorldContext(config(id), clock, codec.eventCodec()));
        return target;
    }

    private final Workflow<String, String> order = Workflow.define("tck.migrate.order", String.class, (ctx, in) -> {
        ctx.upsertSearchAttributes(SearchAttributes.of(CUSTOMER, in));
        String charged = ctx.step("charge", () -> "charged " + in);
        if (in.startsWith("fail")) {
            throw new IllegalStateException("declined " + in);
        }
        ctx.sleep("cool-off", Duration.ofHours(1));
        String approval = ctx.awaitSignal("approval", String.class);
        return charged + ", " + approval;
    });

    /** Runs in every state a copy meets: completed, failed, sleeping, waiting with a signal pending, held. */
    private List<String> seed() {
        worldflow(order);
        wf.start(order, "ana", StartOptions.id("m-done"));
        wf.start(order, "fail-bo", StartOptions.id("m-failed"));
        wf.start(order, "di", StartOptions.id("m-waiting"));
        wf.start(order, "ed", StartOptions.id("m-held"));
        awaitStatus("m-failed", RunStatus.FAILED);
        for (String id : List.of("m-done", "m-waiting", "m-held")) {
            awaitStatus(id, RunStatus.SLEEPING);
        }
        clock.advance(Duration.ofHours(1));
        for (String id : List.of("m-done", "m-waiting", "m-held")) {
            awaitStatus(id, RunStatus.WAITING);
        }
        wf.start(order, "cy", StartOptions.id("m-sleeping")); // its timer is due an hour after the others'
        awaitStatus("m-sleeping", RunStatus.SLEEPING);
        wf.signal("m-done", "approval", "ok by ana");
        awaitStatus("m-done", RunStatus.COMPLETED);
        wf.close(); // and its world: the store is opened again with no worker
        wf = null;
        world = open();
        // what a copy must carry besides the log: a signal not yet received, a hold, a cancellation request
        world.signals().send("m-waiting", "approval", codec.encode("ok by di", "signal"), null, "tester");
        world.eventLog().hold("m-held", ErrorInfo.of("tck.Held", "held for the copy"));
        world.eventLog().requestCancel("m-held", "asked before the move", false, "tester");
        return List.of("m-done", "m-failed", "m-sleeping", "m-waiting", "m-held");
    }

    @Test
    void everyRunArrivesOnceWithItsLogChainProjectionSignalsHoldAndCancelRequest() {
        List<String> ids = seed();
        World to = target();

        WorldMigration.Report report =
                WorldMigration.between(world, to).batch(2).copy(RunQuery.all());

        assertThat(report.refused()).isEmpty();
        assertThat(report.copied()).isEqualTo(ids.size());
        for (String id : ids) {
            assertThat(to.eventLog().read(id, 0))
                    .as(id)
                    .isEqualTo(world.eventLog().read(id, 0));
            assertThat(to.eventLog().storedLog(id).head())
                    .as("the copy of " + id + " is chained to the source's head")
                    .isEqualTo(world.eventLog().storedLog(id).head());
            RunInfo a = world.runQueries().get(id).orElseThrow();
            RunInfo b = to.runQueries().get(id).orElseThrow();
            assertThat(b.status()).as(id).isEqualTo(a.status());
            assertThat(b.output()).as(id).isEqualTo(a.output());
            assertThat(b.error()).as(id).isEqualTo(a.error());
            assertThat(b.createdAt()).as(id).isEqualTo(a.createdAt());
            assertThat(b.searchAttributes()).as(id).isEqualTo(a.searchAttributes());
            assertThat(b.logLength()).as(id).isEqualTo(a.logLength());
        }
        assertThat(to.signals().pending("m-waiting"))
                .extracting(s -> codec.decode(s.payload(), String.class, "signal"))
                .containsExactly("ok by di");
        assertThat(to.runQueries().get("m-held").orElseThrow().held()).isNotNull();
        assertThat(to.runQueries().get("m-held").orElseThrow().cancelRequest()).isNotNull();
        assertThat(to.runQueries()
                        .list(RunQuery.all().withAttribute(CUSTOMER, "cy"))
                        .runs())
                .extracting(RunInfo::runId)
                .containsExactly("m-sleeping");

        WorldMigration.Report again = WorldMigration.between(world, to).copy(RunQuery.all());
        assertThat(again.copied()).isZero();
        assertThat(again.alreadyThere()).isEqualTo(ids.size());
        assertThat(to.signals().pending("m-waiting"))
                .as("no signal copied twice")
                .hasSize(1);
    }

    @Test
    void copiedRunsGoOnInTheTargetWhereTheyStopped() {
        seed();
        World to = target();
        WorldMigration.between(world, to).copy(RunQuery.all());
        world.close();
        world = to;
        target = null;

        worldflow(order);
        RunHandle<String> waiting = wf.handle("m-waiting", String.class);
        assertThat(waiting.result(WAIT)).as("its copied signal is received").isEqualTo("charged di, ok by di");
        assertThat(wf.run("m-sleeping").orElseThrow().status()).isEqualTo(RunStatus.SLEEPING);
        clock.advance(Duration.ofHours(1));
        awaitStatus("m-sleeping", RunStatus.WAITING);
        wf.signal("m-sleeping", "approval", "ok by cy");
        assertThat(wf.handle("m-sleeping", String.class).result(WAIT)).isEqualTo("charged cy, ok by cy");
        assertThat(eventsOf("m-sleeping", io.worldflow.event.StepCompleted.class))
                .as("the step it ran before the move is not run again")
                .hasSize(1);
    }

    @Test
    void aCopyCutShortGoesOnFromItsLastRecordAndARunWithAnotherHistoryIsRefused() {
        seed();
        World to = target();
        // a copy that stopped after the first two records of one run, as a crash would leave it
        var log = world.eventLog().storedLog("m-done");
        WorldMigration.between(world, to).copy(RunQuery.all().withIdPrefix("m-failed"));
        var first = new io.worldflow.format.EventFormat();
        var started = (io.worldflow.event.WorkflowStarted)
                first.decodeAll("m-done", 0, log.records().getFirst().text()).getFirst();
        to.eventLog()
                .create(new io.worldflow.spi.NewRun(
                        "m-done",
                        started.workflow(),
                        started.input(),
                        started.at(),
                        started.at(),
                        null,
                        StartOptions.DEFAULT_QUEUE,
                        0,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        started.actor(),
                        null));
        var second = log.records().get(1);
        assertThat(to.eventLog()
                        .append(List.of(new Append(
                                "m-done",
                                second.seq(),
                                first.decodeAll("m-done", second.seq(), second.text()),
                                RunStatus.RUNNING)))
                        .getFirst()
                        .appended())
                .isTrue();
        // and a run of another history under one of the ids
        to.eventLog()
                .create(new io.worldflow.spi.NewRun(
                        "m-sleeping",
                        "tck.other",
                        codec.encode("x", "input"),
                        clock.instant(),
                        clock.instant(),
                        null,
                        StartOptions.DEFAULT_QUEUE,
                        0,
                        null,
                        null));

        WorldMigration.Report report = WorldMigration.between(world, to).copy(RunQuery.all());

        assertThat(report.refused()).hasSize(1);
        assertThat(report.refused().getFirst().runId()).isEqualTo("m-sleeping");
        assertThat(report.refused().getFirst().why()).contains("another history");
        assertThat(report.alreadyThere()).isEqualTo(1); // m-failed, copied before
        assertThat(to.eventLog().read("m-done", 0)).isEqualTo(world.eventLog().read("m-done", 0));
        assertThat(to.eventLog().storedLog("m-done").head())
                .isEqualTo(world.eventLog().storedLog("m-done").head());
        assertThat(to.runQueries().get("m-sleeping").orElseThrow().workflow()).isEqualTo("tck.other");
    }

    @Test
    void badArgumentsAreClearErrors() {
        assertThatThrownBy(() -> WorldMigration.between(world, world))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not to itself");
        World to = target();
        assertThatThrownBy(() -> WorldMigration.between(world, to).batch(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("batch must be within 1..1000");
        assertThatThrownBy(() -> WorldMigration.between(world, to).waitForTurns(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new ArrayList<>(to.runQueries().list(RunQuery.all()).runs())).isEmpty();
    }
}
