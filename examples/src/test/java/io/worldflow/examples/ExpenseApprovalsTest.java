package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ExpenseApprovalsTest {

    @TempDir
    Path dir;

    @Test
    void theTimelineSaysTheServiceFiledTheClaimAndTheManagerDecided() {
        Workflow<ExpenseApprovals.Claim, String> approve = ExpenseApprovals.workflow();
        try (Worldflow wf = ExpenseApprovals.expenseService(
                approve, dir.resolve("expenses.db").toString())) {
            wf.startWorker();
            RunHandle<String> run =
                    wf.start(approve, new ExpenseApprovals.Claim("ana", 4_250), StartOptions.defaults());

            ExpenseApprovals.decide(wf, "marta", run.id(), new ExpenseApprovals.Decision(true, "travel"));

            assertThat(run.result(Duration.ofSeconds(30))).isEqualTo("paid 4250 to ana (travel)");
            assertThat(ExpenseApprovals.whoDidWhat(wf, run.id()))
                    .isEqualTo(Map.of("WorkflowStarted", "expense-service", "SignalReceived", "manager:marta"));
            assertThat(wf.actor()).as("the handler's scope ended").isEqualTo("expense-service");
        }
    }
}
