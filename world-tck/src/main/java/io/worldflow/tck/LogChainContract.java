package io.worldflow.tck;

import io.worldflow.ChainReport;
import io.worldflow.RetryPolicy;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.StepOptions;
import io.worldflow.Workflow;
import io.worldflow.format.ChainKey;
import io.worldflow.format.EventFormat;
import io.worldflow.format.LogChain;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.StoredLog;
import io.worldflow.spi.StoredRecord;
import io.worldflow.spi.WorldConfig;
import io.worldflow.tck.WorldConformanceKit.Tamper;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The hash chain over each run's log: every way a world writes a record (a run's creation, a worker's appends, a run
 * started by another's append, a signal taken, a retry) keeps the chain whole, an export checks away from the world,
 * and each edit made directly in the database (a changed byte, a removed record, a swapped pair, a cut-off tail, a
 * head rolled back) is found at the record where it was made, while the other runs still check.
 */
public abstract class LogChainContract extends WorkflowContractSupport {

    protected LogChainContract(WorldConformanceKit kit) {
        super(kit);
    }

    private final AtomicBoolean cardWorks = new AtomicBoolean(false);

    private final Workflow<Integer, Integer> square =
            Workflow.define("tck.chain.square", Integer.class, (ctx, n) -> ctx.step("square", () -> n * n));

    /** Four steps, a child, a signal: records of every kind a worker writes. */
    private final Workflow<String, String> order = Workflow.define("tck.chain.order", String.class, (ctx, in) -> {
        String a = ctx.step("reserve", () -> "reserved " + in);
        int b = ctx.child("size", square, in.length());
        String c = ctx.step("price", () -> "price " + b);
        String go = ctx.awaitSignal("go", String.class, Duration.ofDays(1)).orElse("none");
        String d = ctx.step("ship", () -> "shipped");
        return String.join(", ", a, c, go, d, ctx.step("mail", () -> "mailed"));
    });

    /** Fails until the card works, then completes: a retry reopens it with a record the world writes. */
    private final Workflow<String, String> charge = Workflow.define(
            "tck.chain.charge",
            String.class,
            (ctx, in) -> ctx.step("charge", StepOptions.retry(RetryPolicy.none()), () -> {
                if (!cardWorks.get()) {
                    throw new IllegalStateException("card declined");
                }
                return "charged " + in;
            }));

    private String order(String id) {
        wf.start(order, id, StartOptions.id(id));
        awaitStatus(id, RunStatus.WAITING);
        wf.signal(id, "go", "yes");
        awaitStatus(id, RunStatus.COMPLETED);
        return id;
    }

    /** A charge that fails, then, once the card works, is retried to completion: a record the world writes. */
    private void chargeFailingThenRetried(String id) {
        wf.start(charge, "c1", StartOptions.id(id));
        awaitStatus(id, RunStatus.FAILED);
        cardWorks.set(true);
        wf.retry(id, "card replaced");
        awaitStatus(id, RunStatus.COMPLETED);
    }

    @Test
    void everyWayOfWritingKeepsTheChainWholeAndAnExportChecksOnItsOwn() {
        worldflow(order, square, charge);
        order("chain-order");
        chargeFailingThenRetried("chain-charge");

        String child = wf.runs(io.worldflow.RunQuery.all().withWorkflow("tck.chain.square"))
                .runs()
                .getFirst()
                .runId();
        for (String id : List.of("chain-order", "chain-charge", child)) {
            ChainReport report = wf.audit().verify(id);
            assertThat(report.intact()).as(id + ": " + report.problem()).isTrue();
            assertThat(report.chainedFrom()).isZero();
            assertThat(report.logLength()).isEqualTo(wf.events(id).size());
            StoredLog stored = world.eventLog().storedLog(id);
            assertThat(report.head())
                    .isEqualTo(LogChain.hex(stored.records().getLast().link()));
            assertThat(stored.records()).allSatisfy(r -> assertThat(r.link()).hasSize(LogChain.LINK_BYTES));
        }
        assertThat(world.eventLog().storedLog("chain-order").records()).hasSizeGreaterThanOrEqualTo(6);
        assertThat(wf.audit().verifyAll(io.worldflow.RunQuery.all()))
                .as("no run is broken")
                .isEmpty();

        // the export holds the records as stored: it checks, and its events are the run's, away from any world
        String export = LogChain.export(world.eventLog().storedLog("chain-order"));
        StoredLog read = LogChain.read(export);
        assertThat(LogChain.verify(read).intact()).isTrue();
        EventFormat format = new EventFormat();
        List<io.worldflow.event.Event> events = new ArrayList<>();
        for (StoredRecord r : read.records()) {
            events.addAll(format.decodeAll(read.runId(), r.seq(), r.text()));
        }
        assertThat(events).isEqualTo(wf.events("chain-order"));
        // and an export edited afterwards no longer does
        String edited = export.replace("reserved chain-order", "reserved chain-ordeR");
        assertThat(edited).isNotEqualTo(export);
        assertThat(LogChain.verify(LogChain.read(edited)).intact()).isFalse();
    }

    @Test
    void eachEditInTheDatabaseIsFoundWhereItWasMadeAndTheOtherRunsStillCheck() throws Exception {
        worldflow(order, square);
        // a log stripped of its links is checked on its own (withAChainKeyALogStrippedOfItsLinks…)
        List<Tamper> edits = java.util.Arrays.stream(Tamper.values())
                .filter(how -> how != Tamper.STRIP_LINKS && !how.forgesState())
                .toList();
        Map<Tamper, String> runs = new java.util.EnumMap<>(Tamper.class);
        for (Tamper how : edits) {
            runs.put(
                    how,
                    order("chain-"
                            + how.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')));
        }
        order("chain-untouched");
        Map<Tamper, Long> where = new java.util.EnumMap<>(Tamper.class);
        Map<Tamper, Long> expected = new java.util.EnumMap<>(Tamper.class);
        for (Tamper how : edits) {
            List<StoredRecord> records =
                    world.eventLog().storedLog(runs.get(how)).records();
            long length = records.getLast().lastSeq() + 1;
            switch (how) {
                case TRUNCATE_TAIL -> {
                    where.put(how, records.getLast().seq());
                    expected.put(how, records.getLast().seq());
                }
                case ROLL_BACK_HEAD -> {
                    where.put(how, records.get(2).seq());
                    expected.put(how, length - 1);
                }
                default -> {
                    where.put(how, records.get(2).seq());
                    expected.put(how, records.get(2).seq());
                }
            }
        }
        wf.close();
        world.close();
        for (Tamper how : edits) {
            kit().tamper(storageId(), runs.get(how), how, where.get(how));
        }
        world = open();
        worldflow(order, square);

        for (Tamper how : edits) {
            ChainReport report = wf.audit().verify(runs.get(how));
            assertThat(report.intact()).as(how + " goes unnoticed").isFalse();
            assertThat(report.brokenAt()).as(how + ": " + report.problem()).isEqualTo(expected.get(how));
            assertThat(report.problem()).isNotBlank();
        }
        assertThat(wf.audit().verify("chain-untouched").intact()).isTrue();
        assertThat(wf.audit().verifyAll(io.worldflow.RunQuery.all()))
                .extracting(ChainReport::runId)
                .containsExactlyInAnyOrderElementsOf(runs.values());
    }

    @Test
    void aRunsStoredStateEditedBesideItsIntactLogIsFoundAtTheEventThatSaysOtherwise() throws Exception {
        worldflow(order, square);
        List<Tamper> edits = java.util.Arrays.stream(Tamper.values())
                .filter(Tamper::forgesState)
                .toList();
        Map<Tamper, String> runs = new java.util.EnumMap<>(Tamper.class);
        for (Tamper how : edits) {
            String id = "state-" + how.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
            wf.start(
                    order,
                    id,
                    StartOptions.id(id)
                            .withSearchAttributes(io.worldflow.SearchAttributes.of(Map.of("customer", "c-42"))));
            awaitStatus(id, RunStatus.WAITING);
            wf.signal(id, "go", "yes");
            awaitStatus(id, RunStatus.COMPLETED);
            runs.put(how, id);
        }
        order("state-untouched");
        long last = wf.run(runs.get(Tamper.FORGE_STATUS)).orElseThrow().logLength() - 1;
        wf.close();
        world.close();
        for (Tamper how : edits) {
            kit().tamper(storageId(), runs.get(how), how, -1);
        }
        world = open();
        worldflow(order, square);

        // what the edits did is what readers are served
        assertThat(wf.run(runs.get(Tamper.FORGE_STATUS)).orElseThrow().status()).isEqualTo(RunStatus.FAILED);
        assertThat(wf.run(runs.get(Tamper.FORGE_OUTPUT)).orElseThrow().output().json())
                .isEqualTo("\"forged\"");
        assertThat(wf.run(runs.get(Tamper.FORGE_INPUT)).orElseThrow().input().json())
                .isEqualTo("\"forged\"");
        assertThat(wf.run(runs.get(Tamper.FORGE_ATTRIBUTES))
                        .orElseThrow()
                        .searchAttributes()
                        .asMap())
                .isEqualTo(Map.of("customer", "forged"));

        Map<Tamper, Long> expected = Map.of(
                Tamper.FORGE_STATUS,
                last,
                Tamper.FORGE_OUTPUT,
                last,
                Tamper.FORGE_INPUT,
                0L,
                Tamper.FORGE_ATTRIBUTES,
                0L);
        Map<Tamper, String> says = Map.of(
                Tamper.FORGE_STATUS, "stored as FAILED, but its log ends with WorkflowCompleted",
                Tamper.FORGE_OUTPUT, "stored output",
                Tamper.FORGE_INPUT, "stored input",
                Tamper.FORGE_ATTRIBUTES, "stored search attributes");
        for (Tamper how : edits) {
            ChainReport report = wf.audit().verify(runs.get(how));
            assertThat(report.intact()).as(how + " goes unnoticed").isFalse();
            assertThat(report.brokenAt()).as(how + ": " + report.problem()).isEqualTo(expected.get(how));
            assertThat(report.problem()).contains(says.get(how));
        }
        assertThat(wf.audit().verify("state-untouched").intact()).isTrue();
        assertThat(wf.audit().verifyAll(io.worldflow.RunQuery.all()))
                .extracting(ChainReport::runId)
                .containsExactlyInAnyOrderElementsOf(runs.values());
    }

    private static final String KEY = java.util.Base64.getEncoder()
            .encodeToString("0123456789abcdef0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    private static final String OTHER_KEY = java.util.Base64.getEncoder()
            .encodeToString("fedcba9876543210fedcba9876543210".getBytes(java.nio.charset.StandardCharsets.UTF_8));

    /** Whether the world is opened with a chain key ({@link ChainKey#KEY}). */
    private boolean keyed;

    @Override
    protected WorldConfig config(String storageId) {
        WorldConfig config = super.config(storageId);
        return keyed ? config.with(ChainKey.KEY, KEY) : config;
    }

    @Test
    void withAChainKeyEveryWayOfWritingMakesKeyedLinksThatCheckOnlyWithTheKey() {
        keyed = true;
        world.close();
        world = open();
        wf = keyedWorldflow();
        order("keyed-order");
        chargeFailingThenRetried("keyed-charge");

        for (String id : List.of("keyed-order", "keyed-charge")) {
            StoredLog stored = world.eventLog().storedLog(id);
            assertThat(stored.records())
                    .allSatisfy(r -> assertThat(r.link()[0]).isEqualTo((byte) LogChain.KEYED_VERSION));
            assertThat(wf.audit().verify(id).intact())
                    .as(id + ": " + wf.audit().verify(id).problem())
                    .isTrue();
            assertThat(LogChain.verify(stored).problem()).as("without the key").contains("keyed link");
            assertThat(LogChain.verify(
                                    stored,
                                    ChainKey.fromConfig(WorldConfig.of(Map.of(ChainKey.KEY, OTHER_KEY)))
                                            .orElseThrow())
                            .intact())
                    .as("with another key")
                    .isFalse();
        }
        assertThat(wf.audit().verifyAll(io.worldflow.RunQuery.all())).isEmpty();
    }

    @Test
    void withAChainKeyALogStrippedOfItsLinksAndEditedIsBrokenWhileWithoutOneItIsReportedAsNotCovered()
            throws Exception {
        worldflow(order, square);
        order("plain-stripped");
        long plainAt =
                world.eventLog().storedLog("plain-stripped").records().get(2).seq();
        wf.close();
        world.close();
        keyed = true;
        world = open();
        wf = keyedWorldflow();
        order("keyed-stripped");
        long keyedAt =
                world.eventLog().storedLog("keyed-stripped").records().get(2).seq();
        wf.close();
        world.close();
        kit().tamper(storageId(), "plain-stripped", Tamper.STRIP_LINKS, plainAt);
        kit().tamper(storageId(), "keyed-stripped", Tamper.STRIP_LINKS, keyedAt);
        world = open();
        wf = keyedWorldflow();

        ChainReport keyedReport = wf.audit().verify("keyed-stripped");
        assertThat(keyedReport.intact())
                .as("a chain key is required: anyone can strip links")
                .isFalse();
        assertThat(keyedReport.brokenAt()).isZero();
        assertThat(keyedReport.problem()).contains("has no link");
        // without a key, a log with no link reads as one written before the world kept links: nothing of it is
        // covered, and the report says so rather than vouching for it
        ChainReport plain = LogChain.verify(world.eventLog().storedLog("plain-stripped"));
        assertThat(plain.chainedFrom()).isEqualTo(plain.logLength());
        assertThat(plain.head()).isNull();
    }

    private Worldflow keyedWorldflow() {
        Worldflow built = Worldflow.builder()
                .world(world)
                .clock(clock)
                .property(ChainKey.KEY, KEY)
                .register(order)
                .register(square)
                .register(charge)
                .build();
        built.startWorker(workerOptions());
        return built;
    }

    @Test
    void checkingAnUnknownRunIsAClearErrorThatChangesNothing() {
        worldflow(order, square);
        assertThatThrownBy(() -> wf.audit().verify("chain-nobody"))
                .isInstanceOf(RunNotFoundException.class)
                .hasMessageContaining("chain-nobody");
        assertThat(wf.run("chain-nobody")).isEmpty();
    }
}
