package io.worldflow.world.aws;

import io.worldflow.RunHandle;
import io.worldflow.Workflow;
import io.worldflow.runtime.WorkerOptions;
import io.worldflow.runtime.Worldflow;
import io.worldflow.spi.WorldContext;
import io.worldflow.world.aws.internal.AwsWorld;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Counts the AWS requests of one run, so that the cost per run documented in the README stays true. */
class RequestCostTest {

    /** Counts each call by service and operation (retries are one call). */
    static final class Counter implements ExecutionInterceptor {
        final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            String op = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME) + "."
                    + attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
            calls.computeIfAbsent(op, k -> new AtomicInteger()).incrementAndGet();
        }

        int total(String service) {
            return calls.entrySet().stream()
                    .filter(e -> e.getKey().startsWith(service + "."))
                    .mapToInt(e -> e.getValue().get())
                    .sum();
        }
    }

    @Test
    void aThreeStepRunCostsAFewDozenRequests() {
        try (AwsWorlds worlds = new AwsWorlds()) {
            Counter counter = new Counter();
            AwsWorld world = AwsWorld.open(
                    new WorldContext(worlds.config(), worlds.clock, worlds.codec.eventCodec()), List.of(counter));
            Workflow<String, String> w = Workflow.define(
                    "cost.three",
                    String.class,
                    (ctx, in) -> ctx.step("a", () -> "a") + ctx.step("b", () -> "b") + ctx.step("c", () -> "c"));
            try (Worldflow wf = Worldflow.builder()
                    .world(world)
                    .clock(worlds.clock)
                    .register(w)
                    .build()) {
                wf.startWorker(WorkerOptions.defaults()
                        .withHandleSigterm(false)
                        .withPollInterval(Duration.ofSeconds(30))
                        .withShutdownGrace(Duration.ofSeconds(2))
                        .withWorkerId("cost"));
                RunHandle<String> warmUp = wf.start(w, "warm-up");
                assertThat(warmUp.result(Duration.ofSeconds(20))).isEqualTo("abc");
                counter.calls.clear();

                RunHandle<String> run = wf.start(w, "x");
                assertThat(run.result(Duration.ofSeconds(20))).isEqualTo("abc");
                Map<String, Integer> seen = new TreeMap<>();
                counter.calls.forEach((k, v) -> seen.put(k, v.get()));
                System.out.println("requests of one three-step run: " + seen);

                assertThat(counter.total("DynamoDb"))
                        .as("DynamoDB requests %s", seen)
                        .isBetween(5, 40);
                assertThat(counter.total("Sqs")).as("SQS requests %s", seen).isLessThanOrEqualTo(6);
            } finally {
                world.close();
            }
        }
    }
}
