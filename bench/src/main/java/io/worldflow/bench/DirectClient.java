package io.worldflow.bench;

import io.worldflow.ChainReport;
import io.worldflow.RunInfo;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.StartOptions;
import io.worldflow.WorldflowException;
import io.worldflow.event.Event;
import io.worldflow.runtime.Worldflow;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The workloads' client calls on a {@link Worldflow} of this process, through its public API. */
final class DirectClient implements BenchClient {

    private final Worldflow wf;
    private final boolean owned;

    DirectClient(Worldflow wf, boolean owned) {
        this.wf = wf;
        this.owned = owned;
    }

    /** A client-only Worldflow (no worker) over the world of {@code properties}, with the bench workflows. */
    static DirectClient open(Map<String, String> properties) {
        Worldflow.Builder b = Worldflow.builder().properties(properties);
        BenchWorkflows.ALL.forEach(b::register);
        BenchTelemetry.apply(b);
        return new DirectClient(b.build(), true);
    }

    Worldflow worldflow() {
        return wf;
    }

    @Override
    public String submit(String workflow, int input) {
        return wf.submit(workflow, input, StartOptions.defaults());
    }

    @Override
    public String submit(String workflow, int input, String queue, Instant availableAt) {
        return wf.submit(workflow, input, StartOptions.queue(queue).withAvailableAt(availableAt));
    }

    @Override
    public void signal(String runId, String name, long payload) {
        wf.signal(runId, name, payload);
    }

    @Override
    public RunStatus status(String runId) {
        return wf.run(runId).map(RunInfo::status).orElseThrow(() -> new RunNotFoundException(runId));
    }

    @Override
    public long count(String workflow, RunStatus status) {
        Map<RunStatus, Long> counts = wf.counts(RunQuery.all().withWorkflow(workflow));
        return counts.getOrDefault(status, 0L);
    }

    @Override
    public void await(String runId, long timeoutMs) {
        try {
            wf.handle(runId).result(Duration.ofMillis(timeoutMs));
        } catch (WorldflowException e) {
            throw new IllegalStateException("run " + runId + " did not complete: " + e.getMessage(), e);
        }
    }

    @Override
    public String result(String runId) {
        RunInfo info = wf.run(runId).orElseThrow(() -> new RunNotFoundException(runId));
        if (info.status() != RunStatus.COMPLETED) {
            throw new IllegalStateException("run " + runId + " is " + info.status() + ", not COMPLETED");
        }
        return info.output().json();
    }

    @Override
    public long events(String runId) {
        return wf.events(runId).size();
    }

    @Override
    public double verifyMillis(String runId) {
        long t0 = System.nanoTime();
        ChainReport report = wf.audit().verify(runId);
        double ms = (System.nanoTime() - t0) / 1e6;
        if (!report.intact()) {
            throw new IllegalStateException("the chain of run " + runId + " is broken: " + report.problem());
        }
        return ms;
    }

    @Override
    public Span span(String workflow) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long runs = 0;
        String cursor = null;
        do {
            RunQuery q = RunQuery.all().withWorkflow(workflow).withLimit(RunQuery.MAX_LIMIT);
            RunPage page = wf.runs(cursor == null ? q : q.withCursor(cursor));
            for (RunInfo run : page.runs()) {
                List<Event> log = wf.events(run.runId());
                if (log.size() < 2 || !log.getLast().isTerminal()) {
                    continue;
                }
                runs++;
                first = Math.min(
                        first, BenchWorkflows.micros(log.get(1).at())); // log[0] is WorkflowStarted, written at submit
                last = Math.max(last, BenchWorkflows.micros(log.getLast().at()));
            }
            cursor = page.nextCursor();
        } while (cursor != null);
        return new Span(first, last, runs);
    }

    @Override
    public void close() {
        if (owned) {
            wf.close();
        }
    }
}
