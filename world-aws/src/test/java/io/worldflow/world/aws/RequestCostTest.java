package io.worldflow.world.aws;

import io.worldflow.RunHandle;
import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldContext;
import io.worldflow.world.aws.internal.AwsWorld;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity.INDEXES;

/**
 * Counts the AWS requests of one run, so that the cost per run documented in the README stays true. The requests of
 * the client that waits for the run's result ({@code RunHandle.result} reads the run until it has ended) are counted
 * apart: how often a client looks is its own choice, and a run nobody waits for makes none.
 */
class RequestCostTest {

    /** Counts each call by service and operation (retries are one call); the calls of the waiting thread apart. */
    static final class Counter implements ExecutionInterceptor {
        final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> waiting = new ConcurrentHashMap<>();
        /** Capacity units DynamoDB reports for the run's requests (the client's apart), tables and indexes together. */
        final DoubleAdder writeUnits = new DoubleAdder();

        final DoubleAdder readUnits = new DoubleAdder();
        volatile Thread waiter;
        /**
         * The run's DynamoDB requests sent and not yet answered. A call is counted when it is sent and its units when it is
         * answered, so a worker's request still in flight when the client has seen the result would be counted on one
         * side of {@link #clear} and not the other: {@link #clear} and {@link #report} wait for them first.
         */
        final AtomicInteger inFlight = new AtomicInteger();

        private static final ExecutionAttribute<Boolean> COUNTED = new ExecutionAttribute<>("worldflow.counted");

        /** Asks DynamoDB to report the capacity each request consumed, its indexes' included. */
        @Override
        public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
            return switch (context.request()) {
                case TransactWriteItemsRequest r ->
                    r.toBuilder().returnConsumedCapacity(INDEXES).build();
                case UpdateItemRequest r ->
                    r.toBuilder().returnConsumedCapacity(INDEXES).build();
                case PutItemRequest r ->
                    r.toBuilder().returnConsumedCapacity(INDEXES).build();
                case DeleteItemRequest r ->
                    r.toBuilder().returnConsumedCapacity(INDEXES).build();
                case GetItemRequest r ->
                    r.toBuilder().returnConsumedCapacity(INDEXES).build();
                case QueryRequest r ->
                    r.toBuilder().returnConsumedCapacity(INDEXES).build();
                case BatchGetItemRequest r ->
                    r.toBuilder().returnConsumedCapacity(INDEXES).build();
                default -> context.request();
            };
        }

        @Override
        public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
            if (!Boolean.TRUE.equals(attributes.getAttribute(COUNTED))) {
                return;
            }
            try {
                count(context);
            } finally {
                inFlight.decrementAndGet();
            }
        }

        @Override
        public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
            if (Boolean.TRUE.equals(attributes.getAttribute(COUNTED))) {
                inFlight.decrementAndGet();
            }
        }

        private void count(Context.AfterExecution context) {
            switch (context.response()) {
                case TransactWriteItemsResponse r -> r.consumedCapacity().forEach(c -> writeUnits.add(units(c)));
                case UpdateItemResponse r -> writeUnits.add(units(r.consumedCapacity()));
                case PutItemResponse r -> writeUnits.add(units(r.consumedCapacity()));
                case DeleteItemResponse r -> writeUnits.add(units(r.consumedCapacity()));
                case GetItemResponse r -> readUnits.add(units(r.consumedCapacity()));
                case QueryResponse r -> readUnits.add(units(r.consumedCapacity()));
                case BatchGetItemResponse r -> r.consumedCapacity().forEach(c -> readUnits.add(units(c)));
                default -> {}
            }
        }

        private static double units(ConsumedCapacity c) {
            return c == null || c.capacityUnits() == null ? 0 : c.capacityUnits();
        }

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            String op = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME) + "."
                    + attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
            boolean client = Thread.currentThread() == waiter;
            (client ? waiting : calls)
                    .computeIfAbsent(op, k -> new AtomicInteger())
                    .incrementAndGet();
            // DynamoDB's answers carry the units; an SQS receive may wait for messages for seconds
            if (!client && op.startsWith("DynamoDb.")) {
                attributes.putAttribute(COUNTED, true);
                inFlight.incrementAndGet();
            }
        }

        /** Waits until every DynamoDB request counted has been answered. */
        void settle() {
            long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (inFlight.get() > 0) {
                assertThat(System.nanoTime()).as("requests still in flight").isLessThan(end);
                LockSupport.parkNanos(Duration.ofMillis(1).toNanos());
            }
        }

        void clear() {
            settle();
            calls.clear();
            waiting.clear();
            writeUnits.reset();
            readUnits.reset();
        }

        /**
         * The run's DynamoDB bill per million runs at on-demand prices (us-east-1: $0.625 per million write request units,
         * $0.125 per million read request units).
         */
        double dollarsPerMillionRuns() {
            return writeUnits.sum() * 0.625 + readUnits.sum() * 0.125;
        }

        /** The result of the run, read by this thread, whose requests are counted apart. */
        <T> T awaitResult(RunHandle<T> run) {
            waiter = Thread.currentThread();
            try {
                return run.result(Duration.ofSeconds(20));
            } finally {
                waiter = null;
            }
        }

        /** Waits, on this thread, whose requests are counted apart, until the run has {@code status}. */
        void awaitStatus(World world, String runId, RunStatus status) {
            waiter = Thread.currentThread();
            try {
                long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                while (world.runQueries().get(runId).orElseThrow().status() != status) {
                    assertThat(System.nanoTime())
                            .as("run %s becomes %s", runId, status)
                            .isLessThan(end);
                    LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
                }
            } finally {
                waiter = null;
            }
        }

        Map<String, Integer> seen() {
            Map<String, Integer> seen = new TreeMap<>();
            calls.forEach((k, v) -> seen.put(k, v.get()));
            return seen;
        }

        Map<String, Integer> seenWaiting() {
            Map<String, Integer> seen = new TreeMap<>();
            waiting.forEach((k, v) -> seen.put(k, v.get()));
            return seen;
        }

        int total(String service) {
            return calls.entrySet().stream()
                    .filter(e -> e.getKey().startsWith(service + "."))
                    .mapToInt(e -> e.getValue().get())
                    .sum();
        }

        int count(String op) {
            AtomicInteger n = calls.get(op);
            return n == null ? 0 : n.get();
        }

        void report(String what) {
            settle();
            System.out.printf(
                    "requests of %s: %s; the client's while waiting: %s; %.1f write and %.1f read units, $%.2f of"
                            + " DynamoDB per million runs%n",
                    what, seen(), seenWaiting(), writeUnits.sum(), readUnits.sum(), dollarsPerMillionRuns());
        }
    }

    private static final Workflow<String, String> THREE_STEPS = Workflow.define(
            "cost.three",
            String.class,
            (ctx, in) -> ctx.step("a", () -> "a") + ctx.step("b", () -> "b") + ctx.step("c", () -> "c"));

    private static WorkerOptions worker() {
        return WorkerOptions.defaults()
                .withHandleSigterm(false)
                .withPollInterval(Duration.ofSeconds(30))
                .withShutdownGrace(Duration.ofSeconds(2))
                .withWorkerId("cost");
    }

    private static AwsWorld open(AwsWorlds worlds, Counter counter) {
        return AwsWorld.open(
                new WorldContext(worlds.config(), worlds.clock, worlds.codec.eventCodec()), List.of(counter));
    }

    @Test
    void aThreeStepRunStartedWhereItsWorkerRunsCostsAtMostTenDynamoDbRequestsAndOneSqsSend() {
        try (AwsWorlds worlds = new AwsWorlds()) {
            Counter counter = new Counter();
            AwsWorld world = open(worlds, counter);
            try (Worldflow wf = Worldflow.builder()
                    .world(world)
                    .clock(worlds.clock)
                    .register(THREE_STEPS)
                    .build()) {
                wf.startWorker(worker());
                assertThat(counter.awaitResult(wf.start(THREE_STEPS, "warm-up")))
                        .isEqualTo("abc");
                counter.clear();

                assertThat(counter.awaitResult(wf.start(THREE_STEPS, "x"))).isEqualTo("abc");
                counter.report("a three-step run started in its worker's process");

                assertThat(counter.total("DynamoDb"))
                        .as("DynamoDB requests %s", counter.seen())
                        .isLessThanOrEqualTo(10);
                assertThat(counter.count("DynamoDb.GetItem"))
                        .as("reads of the run before its appends %s", counter.seen())
                        .isZero();
                assertThat(counter.count("Sqs.SendMessage"))
                        .as("SQS sends %s", counter.seen())
                        .isLessThanOrEqualTo(1);
                // what the README's price per million runs is worked out from: DynamoDB reports it, indexes included
                assertThat(counter.writeUnits.sum()).as("write units").isBetween(20.0, 100.0);
            } finally {
                world.close();
            }
        }
    }

    /**
     * Started elsewhere, the run costs its creation, a wake-up, a lease (the due turns read, one claimed), a read of its
     * log and its appends, with no read before them. Besides, the client reads its queue's limits (at most once a
     * second) and the worker looks for due turns as its slots free, which it does whatever runs it has: the writes,
     * the reads of the run and the sends are held to a number here.
     */
    @Test
    void aThreeStepRunStartedByAnotherProcessIsWrittenFourTimesLeasedOnceAndNeverReadBeforeAnAppend() {
        try (AwsWorlds worlds = new AwsWorlds()) {
            Counter counter = new Counter();
            AwsWorld workerWorld = open(worlds, counter);
            AwsWorld clientWorld = open(worlds, counter);
            try (Worldflow worker = Worldflow.builder()
                            .world(workerWorld)
                            .clock(worlds.clock)
                            .register(THREE_STEPS)
                            .build();
                    Worldflow client = Worldflow.builder()
                            .world(clientWorld)
                            .clock(worlds.clock)
                            .register(THREE_STEPS)
                            .build()) {
                // started before the worker, so that its wake-up makes the queue the worker's consumer then finds
                RunHandle<String> first = client.start(THREE_STEPS, "warm-up");
                worker.startWorker(worker());
                assertThat(counter.awaitResult(first)).isEqualTo("abc");
                assertThat(counter.awaitResult(client.start(THREE_STEPS, "warm-up again")))
                        .isEqualTo("abc");
                counter.clear();

                assertThat(counter.awaitResult(client.start(THREE_STEPS, "x"))).isEqualTo("abc");
                counter.report("a three-step run started by a client and run by a worker of another process");

                assertThat(counter.count("DynamoDb.TransactWriteItems"))
                        .as("its creation and appends %s", counter.seen())
                        .isLessThanOrEqualTo(4);
                assertThat(counter.count("DynamoDb.UpdateItem"))
                        .as("its lease %s", counter.seen())
                        .isLessThanOrEqualTo(1);
                assertThat(counter.count("DynamoDb.GetItem"))
                        .as("no read of the run, only the client's of its queue %s", counter.seen())
                        .isLessThanOrEqualTo(1);
                assertThat(counter.count("Sqs.SendMessage"))
                        .as("its wake-up %s", counter.seen())
                        .isLessThanOrEqualTo(1);
            } finally {
                clientWorld.close();
                workerWorld.close();
            }
        }
    }

    /**
     * A run that sleeps takes a second turn: a wake-up sent, a lease (the due turns read, one claimed), the run's log
     * read, and its last append. The clock's jump also makes the worker look for due turns and schedules, which it does
     * whatever runs it has: only the run's own writes and sends are held to a number here.
     */
    @Test
    void aRunWithADurableSleepWritesOnceMoreAndLeasesOnceForItsSecondTurn() {
        Workflow<String, String> sleeper = Workflow.define("cost.sleep", String.class, (ctx, in) -> {
            String a = ctx.step("a", () -> "a");
            ctx.sleep("pause", Duration.ofHours(1));
            return a + ctx.step("b", () -> "b");
        });
        try (AwsWorlds worlds = new AwsWorlds()) {
            Counter counter = new Counter();
            AwsWorld world = open(worlds, counter);
            try (Worldflow wf = Worldflow.builder()
                    .world(world)
                    .clock(worlds.clock)
                    .register(THREE_STEPS)
                    .register(sleeper)
                    .build()) {
                wf.startWorker(worker());
                assertThat(counter.awaitResult(wf.start(THREE_STEPS, "warm-up")))
                        .isEqualTo("abc");
                counter.clear();

                RunHandle<String> run = wf.start(sleeper, "x");
                counter.awaitStatus(world, run.id(), RunStatus.SLEEPING);
                worlds.clock.advance(Duration.ofHours(1));
                assertThat(counter.awaitResult(run)).isEqualTo("ab");
                counter.report("a run of a step, a durable sleep and a step");

                assertThat(counter.count("DynamoDb.TransactWriteItems"))
                        .as("the run's creation and appends %s", counter.seen())
                        .isLessThanOrEqualTo(3);
                assertThat(counter.count("DynamoDb.UpdateItem"))
                        .as("the lease of its second turn %s", counter.seen())
                        .isLessThanOrEqualTo(1);
                assertThat(counter.count("Sqs.SendMessage"))
                        .as("its wake-up %s", counter.seen())
                        .isLessThanOrEqualTo(1);
            } finally {
                world.close();
            }
        }
    }
}
