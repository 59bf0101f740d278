package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.event.Event;
import io.worldflow.event.SignalReceived;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.runtime.Worldflow;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Expense claims that a manager approves: the expense service starts them, and its web handler signals each decision
 * as the manager who made it, so that every claim's timeline says who asked for it and who approved it.
 */
public final class ExpenseApprovals {

    /** A claim of {@code cents} by {@code employee}. */
    public record Claim(String employee, long cents) {}

    /** A manager's decision. */
    public record Decision(boolean approved, String note) {}

    private ExpenseApprovals() {}

    public static Workflow<Claim, String> workflow() {
        return Workflow.define("expense.approve", Claim.class, (ctx, claim) -> {
            Decision d = ctx.awaitSignal("decision", Decision.class);
            return ctx.step(
                    "settle",
                    () -> (d.approved() ? "paid " : "refused ") + claim.cents() + " to " + claim.employee() + " ("
                            + d.note() + ")");
        });
    }

    // tag::actors[]
    public static Worldflow expenseService(Workflow<Claim, String> approve, String dbPath) {
        return Worldflow.builder()
                .property("worldflow.local.path", dbPath)
                .actor("expense-service") // recorded as who made this application's calls
                .register(approve)
                .build();
    }

    /** The web handler of the approval page: the manager's own identity is recorded with the decision. */
    public static void decide(Worldflow wf, String managerId, String claimRunId, Decision decision) {
        try (var as = wf.actingAs("manager:" + managerId)) {
            wf.signal(claimRunId, "decision", decision);
        }
    }
    // end::actors[]

    /** Who caused each event of the run that someone outside it caused, by event type. */
    public static Map<String, String> whoDidWhat(Worldflow wf, String runId) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Event e : wf.events(runId)) {
            String actor = switch (e) {
                case WorkflowStarted s -> s.actor();
                case SignalReceived s -> s.actor();
                case WorkflowCancelRequested c -> c.actor();
                default -> null;
            };
            if (actor != null) {
                out.put(e.type(), actor);
            }
        }
        return out;
    }

    /** Files a claim, approves it as a manager, and prints who did what. */
    public static void main(String[] args) {
        Workflow<Claim, String> approve = workflow();
        try (Worldflow wf = expenseService(approve, args.length > 0 ? args[0] : "expenses.db")) {
            wf.startWorker();
            RunHandle<String> run = wf.start(approve, new Claim("ana", 4_250), StartOptions.defaults());
            decide(wf, "marta", run.id(), new Decision(true, "conference travel"));
            System.out.println(run.result(Duration.ofSeconds(30)));
            whoDidWhat(wf, run.id()).forEach((event, actor) -> System.out.println(event + " by " + actor));
        }
    }
}
