package io.worldflow.cli.internal;

import io.worldflow.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** {@code worldflow runs show ID}: where one run stands. */
@Command(
        name = "show",
        description = "A run: its status, why it is held, what it waits on, a cancellation asked for, its parent and"
                + " schedule, its search attributes, its error or result.")
final class ShowRunCommand extends BackendCommand {

    @Parameters(paramLabel = "ID", description = "The run's id.")
    String runId;

    @Mixin
    JsonFlag json;

    @Override
    protected int run(Backend backend) {
        RunDetail run = backend.run(runId);
        RunWaits waits = RunWaits.of(backend.events(runId));
        if (json.on) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("run", run);
            out.put("waits", waits.waits());
            out.put("parent", waits.parent());
            out.put("schedule", waits.schedule());
            out.put("scheduledFor", waits.scheduledFor());
            out.put("continuedFrom", waits.continuedFrom());
            out.put("continuedAs", waits.continuedAs());
            JsonOutput.print(out(), out);
            return ExitCodes.OK;
        }
        Map<String, Object> lines = new LinkedHashMap<>();
        lines.put("run", run.runId());
        lines.put("workflow", run.workflow());
        lines.put("status", run.status());
        if (run.heldReason() != null) {
            lines.put("held", "since " + Table.cell(run.heldSince()) + ": " + run.heldReason());
        }
        lines.put(
                "waits on",
                waits.waits().isEmpty()
                        ? null
                        : waits.waits().stream().map(RunWaits.Wait::describe).collect(Collectors.joining(", ")));
        RunDetail.CancelRequest cancel = run.cancelRequest();
        if (cancel != null) {
            lines.put(
                    cancel.terminate() ? "terminate" : "cancel",
                    "requested at " + Table.cell(cancel.requestedAt())
                            + (cancel.actor() == null ? "" : " by " + cancel.actor())
                            + (cancel.reason() == null ? "" : ": " + cancel.reason()));
        }
        lines.put("parent", waits.parent());
        lines.put("continues", waits.continuedFrom());
        if (waits.continuedAs() != null) {
            // COMPLETED with no output reads as done: it handed over, and its chain goes on there
            lines.put(
                    "continued as", waits.continuedAs() + " (signals and cancels by this id reach its chain's newest)");
        }
        if (waits.schedule() != null) {
            lines.put("schedule", waits.schedule() + " (fire time " + Table.cell(waits.scheduledFor()) + ")");
        }
        lines.put("created", run.createdAt());
        lines.put("updated", run.updatedAt());
        lines.put("queue", run.queue() + " (priority " + run.priority() + ")");
        if (run.key() != null) {
            lines.put("key", run.key());
        }
        if (run.deadline() != null) {
            lines.put("deadline", run.deadline());
        }
        lines.put("events", run.logLength());
        lines.put("attributes", run.attributes());
        if (run.error() != null) {
            lines.put("error", run.error());
        }
        if (run.output() != null) {
            lines.put("result", run.output());
        }
        lines.forEach((name, value) -> out().printf("%-11s %s%n", name, Table.cell(value)));
        out().flush();
        return ExitCodes.OK;
    }
}
