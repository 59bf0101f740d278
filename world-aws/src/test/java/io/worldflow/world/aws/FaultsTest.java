package io.worldflow.world.aws;

import io.worldflow.RunHandle;
import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import io.worldflow.event.Event;
import io.worldflow.event.StepCompleted;
import io.worldflow.event.StepScheduled;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.Lease;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.World;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Failures the AWS world must survive: racing writers, dead workers, throttling and 5xx answers, SQS down. */
class FaultsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final AwsWorlds worlds = new AwsWorlds();
    private final List<AutoCloseable> closing = new ArrayList<>();
    private final ConcurrentHashMap<String, AtomicInteger> counters = new ConcurrentHashMap<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closing.reversed()) {
            c.close();
        }
        worlds.close();
    }

    private int bump(String name) {
        return counters.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
    }

    private int count(String name) {
        return counters.computeIfAbsent(name, k -> new AtomicInteger()).get();
    }

    private Workflow<String, String> threeSteps() {
        return Workflow.define(
                "faults.three",
                String.class,
                (ctx, in) -> ctx.step("a", () -> "a" + bump("a"))
                        + ctx.step("b", () -> "b" + bump("b"))
                        + ctx.step("c", () -> "c" + bump("c")));
    }

    private Worldflow worker(World world, String id, Workflow<?, ?> w) {
        Worldflow wf =
                Worldflow.builder().world(world).clock(worlds.clock).register(w).build();
        wf.startWorker(WorkerOptions.defaults()
                .withHandleSigterm(false)
                .withPollInterval(Duration.ofMillis(50))
                .withShutdownGrace(Duration.ofSeconds(2))
                .withWorkerId(id));
        closing.add(wf);
        return wf;
    }

    @Test
    void twoProcessesAppendingToOneRunHaveExactlyOneWinner() throws Exception {
        World a = worlds.open();
        World b = worlds.open(); // its own clients, as a second process
        a.eventLog()
                .create(new NewRun(
                        "order-1",
                        "faults.v1",
                        worlds.codec.encode("x", "input"),
                        worlds.clock.instant(),
                        worlds.clock.instant(),
                        null,
                        "default",
                        0));
        CountDownLatch go = new CountDownLatch(1);
        List<Callable<AppendResult>> writers = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            World w = i % 2 == 0 ? a : b;
            String step = "writer-" + i;
            writers.add(() -> {
                go.await();
                return w.eventLog()
                        .append(List.of(new Append(
                                "order-1",
                                1,
                                List.of(
                                        new StepScheduled("order-1", 1, worlds.clock.instant(), step, step),
                                        new StepCompleted(
                                                "order-1",
                                                2,
                                                worlds.clock.instant(),
                                                step,
                                                1,
                                                worlds.codec.encode(step, "r"))),
                                RunStatus.RUNNING)))
                        .getFirst();
            });
        }
        List<AppendResult> results = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(writers.size());
        try {
            List<Future<AppendResult>> futures =
                    writers.stream().map(pool::submit).toList();
            go.countDown();
            for (Future<AppendResult> f : futures) {
                results.add(f.get(30, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(results).filteredOn(AppendResult::appended).hasSize(1);
        assertThat(results)
                .filteredOn(AppendResult::isConflict)
                .hasSize(5)
                .allSatisfy(r -> assertThat(r.logLength()).isEqualTo(3));
        List<Event> log = b.eventLog().read("order-1", 0);
        assertThat(log).extracting(Event::seq).containsExactly(0L, 1L, 2L);
        String winner = ((StepScheduled) log.get(1)).stepId();
        assertThat(((StepCompleted) log.get(2)).stepId())
                .as("both events come from the one winner")
                .isEqualTo(winner);
        assertThat(a.runQueries().get("order-1").orElseThrow().logLength()).isEqualTo(3);
    }

    @Test
    void aWorkerThatDiesHoldingATurnIsReplacedWhenItsLeaseLapses() {
        World dead = worlds.open();
        World alive = worlds.open();
        Workflow<String, String> w = threeSteps();
        Worldflow client =
                Worldflow.builder().world(alive).clock(worlds.clock).register(w).build();
        closing.add(client);
        RunHandle<String> run = client.start(w, "x");
        Lease held = dead.taskQueue()
                .lease("dead-worker", Set.of("default"), 10, Duration.ofSeconds(30))
                .getFirst(); // ... and the process is killed: no complete, no release
        assertThat(held.runId()).isEqualTo(run.id());

        worker(alive, "survivor", w);
        assertThat(alive.runQueries().get(run.id()).orElseThrow().status()).isEqualTo(RunStatus.PENDING);
        worlds.clock.set(held.expiresAt().plusMillis(1));

        assertThat(run.result(WAIT)).isEqualTo("a1b1c1");
        assertThat(count("a") + count("b") + count("c")).isEqualTo(3);
        assertThat(dead.taskQueue().extend(held, Duration.ofSeconds(30)))
                .as("the dead worker's lease is gone")
                .isEmpty();
    }

    @Test
    void throttlingAndServerErrorsAreRetriedAndNothingIsLost() throws Exception {
        FaultProxy proxy = new FaultProxy(Emulators.shared().dynamoEndpoint());
        closing.add(proxy);
        World world = worlds.open(worlds.config().with(AwsWorldProvider.DYNAMODB_ENDPOINT, proxy.endpoint()));
        Workflow<String, String> w = threeSteps();
        worker(world, "w", w);
        // started by a client without a worker, so that the worker leases the turn (an UpdateItem) and reads the run
        Worldflow client =
                Worldflow.builder().world(world).clock(worlds.clock).register(w).build();
        closing.add(client);
        proxy.plan(List.of(
                new FaultProxy.Fault("DynamoDB_20120810.TransactWriteItems", 500, "InternalServerError"),
                new FaultProxy.Fault("DynamoDB_20120810.TransactWriteItems", 400, "ThrottlingException"),
                new FaultProxy.Fault(
                        "DynamoDB_20120810.TransactWriteItems", 400, "ProvisionedThroughputExceededException"),
                new FaultProxy.Fault("DynamoDB_20120810.GetItem", 503, "ServiceUnavailable"),
                new FaultProxy.Fault("DynamoDB_20120810.GetItem", 400, "ThrottlingException"),
                new FaultProxy.Fault("DynamoDB_20120810.UpdateItem", 500, "InternalServerError")));

        RunHandle<String> run = client.start(w, "x");

        assertThat(run.result(WAIT)).isEqualTo("a1b1c1");
        assertThat(proxy.pending()).as("every planned fault was answered").isZero();
        assertThat(proxy.injected()).hasSize(6);
        List<Event> log = world.eventLog().read(run.id(), 0);
        assertThat(log).extracting(Event::seq).isSorted().doesNotHaveDuplicates();
        assertThat(log.stream().filter(e -> e instanceof StepCompleted).map(e -> ((StepCompleted) e).stepId()))
                .containsExactly("a", "b", "c");
        assertThat(world.runQueries().get(run.id()).orElseThrow().logLength()).isEqualTo(log.size());
    }

    @Test
    void runsProgressWhileSqsRejectsEveryWakeUp() throws Exception {
        FaultProxy proxy = new FaultProxy(Emulators.shared().sqsEndpoint());
        closing.add(proxy);
        proxy.alwaysFail("AmazonSQS.SendMessage");
        World world = worlds.open(worlds.config()
                .with(AwsWorldProvider.SQS_ENDPOINT, proxy.endpoint())
                .with(AwsWorldProvider.MAX_ATTEMPTS, "2"));
        Workflow<String, String> w = threeSteps();
        worker(world, "w", w);
        // started by a client without a worker, so that the run's turn is announced (a run started where its worker
        // runs is leased as it is created, and needs no wake-up at all)
        Worldflow client =
                Worldflow.builder().world(world).clock(worlds.clock).register(w).build();
        closing.add(client);

        RunHandle<String> run = client.start(w, "x");

        assertThat(run.result(WAIT)).isEqualTo("a1b1c1");
        // wake-ups are sent off the caller's thread: the refusal may come after the run has ended
        long end = System.nanoTime() + WAIT.toNanos();
        while (proxy.injected().isEmpty() && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(proxy.injected()).as("wake-ups were really refused").isNotEmpty();
    }
}
