package io.worldflow.tck;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.EventLog;
import io.worldflow.spi.Lease;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.RunQueries;
import io.worldflow.spi.Signals;
import io.worldflow.spi.TaskQueue;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Helpers shared by the contracts: runs made with {@link NewRun}, events stamped with the manual clock,
 * appends at the log's current end, leases on the default queue.
 *
 * <p>All instants the kit produces have millisecond precision, the least a world must keep.
 */
abstract class WorldContractSupport extends WorldContract {

    static final String WORKFLOW = "tck.order.v1";
    static final String QUEUE = "default";
    static final Duration LEASE = Duration.ofSeconds(30);
    static final Duration MS = Duration.ofMillis(1);

    WorldContractSupport(WorldConformanceKit kit) {
        super(kit);
    }

    // ---- facets (re-read each time: reopen() replaces the world) ----

    EventLog log() {
        return world.eventLog();
    }

    TaskQueue tasks() {
        return world.taskQueue();
    }

    Signals signals() {
        return world.signals();
    }

    RunQueries queries() {
        return world.runQueries();
    }

    Instant now() {
        return clock.instant();
    }

    // ---- runs ----

    NewRun newRun(String runId) {
        return newRun(runId, QUEUE, 0, now());
    }

    NewRun newRun(String runId, String queue, int priority, Instant availableAt) {
        return new NewRun(runId, WORKFLOW, payload(orderInput(runId)), now(), availableAt, null, queue, priority);
    }

    /** Creates the run, asserting that it is new. */
    RunInfo create(NewRun run) {
        CreateResult result = log().create(run);
        assertThat(result.created())
                .as("create(%s) created a new run", run.runId())
                .isTrue();
        return result.run();
    }

    RunInfo create(String runId) {
        return create(newRun(runId));
    }

    /** The run's projection, which must exist. */
    RunInfo info(String runId) {
        return queries().get(runId).orElseThrow(() -> new AssertionError("run " + runId + " does not exist"));
    }

    long length(String runId) {
        return info(runId).logLength();
    }

    // ---- payloads and errors ----

    Payload payload(Object value) {
        return codec.encode(value, "a value of the conformance kit");
    }

    static Map<String, Object> orderInput(String runId) {
        Map<String, Object> input = new LinkedHashMap<>();
        input.put("orderId", runId);
        input.put("items", List.of("book", "pen"));
        input.put("total", 42);
        return input;
    }

    static ErrorInfo sampleError() {
        return ErrorInfo.of(new IllegalStateException("card declined", new IOException("gateway timed out")));
    }

    // ---- events and appends ----

    StepScheduled stepScheduled(String runId, long seq) {
        return new StepScheduled(runId, seq, now(), "step-" + seq, "step");
    }

    /** {@code count} step events of the run, from {@code fromSeq} on. */
    List<Event> steps(String runId, long fromSeq, int count) {
        List<Event> events = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            events.add(stepScheduled(runId, fromSeq + i));
        }
        return events;
    }

    /** One append, through the batch method. */
    AppendResult append(Append append) {
        List<AppendResult> results = log().append(List.of(append));
        assertThat(results).as("results of a batch of one append").hasSize(1);
        return results.getFirst();
    }

    /** Appends the events at the seq of the first one, with the given status after them. */
    AppendResult append(String runId, RunStatus status, Event... events) {
        return append(new Append(runId, events[0].seq(), List.of(events), status));
    }

    /** Appends one step event at the log's current end, asserting that it was written. */
    AppendResult appendStep(String runId, RunStatus status) {
        AppendResult result = append(runId, status, stepScheduled(runId, length(runId)));
        assertThat(result.appended()).as("append to %s was written", runId).isTrue();
        return result;
    }

    /** Moves the run to RUNNING by appending a step event. */
    void markRunning(String runId) {
        appendStep(runId, RunStatus.RUNNING);
    }

    /** Completes the run with a {@link WorkflowCompleted} event. */
    void finish(String runId) {
        AppendResult result =
                append(runId, RunStatus.COMPLETED, new WorkflowCompleted(runId, length(runId), now(), payload("done")));
        assertThat(result.appended()).as("completion of %s was written", runId).isTrue();
    }

    // ---- leases ----

    List<Lease> lease(String worker, int max) {
        return tasks().lease(worker, Set.of(QUEUE), max, LEASE);
    }

    /** Leases from the default queue and asserts that exactly this run's turn was handed out. */
    Lease leaseRun(String runId) {
        List<Lease> leases = lease("worker-" + runId, 10);
        assertThat(leases)
                .as("leases when %s should be due at %s", runId, now())
                .extracting(Lease::runId)
                .containsExactly(runId);
        return leases.getFirst();
    }

    /** Asserts that nothing is due on the default queue (a lease that would return nothing). */
    void assertNothingDue() {
        assertThat(lease("probe", 100)).as("leases at %s", now()).isEmpty();
    }

    /**
     * Leases one due turn at a time, ending each turn at once, and returns the run ids in the order
     * they were handed out.
     */
    List<String> drainOneByOne(Set<String> queues) {
        List<String> order = new ArrayList<>();
        for (List<Lease> l = tasks().lease("one-by-one", queues, 1, LEASE);
                !l.isEmpty();
                l = tasks().lease("one-by-one", queues, 1, LEASE)) {
            assertThat(l).hasSize(1);
            order.add(l.getFirst().runId());
            tasks().complete(l.getFirst(), null);
        }
        return order;
    }
}
