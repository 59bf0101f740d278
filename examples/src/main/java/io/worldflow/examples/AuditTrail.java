package io.worldflow.examples;

import io.worldflow.ChainReport;
import io.worldflow.RunInfo;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import io.worldflow.format.LogChain;
import io.worldflow.runtime.Worldflow;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Refunds that an auditor must be able to trust: each night every run of the day has its hash chain checked, and the
 * finished ones have their logs archived as stored, with the chain, where the database's operator cannot reach them.
 * An archived log is checked later with no world at all.
 */
public final class AuditTrail {

    /** A refund of {@code cents} on an order. */
    public record Refund(String orderId, long cents) {}

    private AuditTrail() {}

    /** Waits up to three days for an approval, then pays back. */
    public static Workflow<Refund, String> workflow() {
        return Workflow.define("audit.refund", Refund.class, (ctx, refund) -> {
            String approval = ctx.awaitSignal("approval", String.class, Duration.ofDays(3))
                    .orElse("expired");
            if (!approval.startsWith("approved")) {
                return "not refunded: " + approval;
            }
            return ctx.step("pay-back", () -> "refunded " + refund.cents() + " on " + refund.orderId());
        });
    }

    // tag::audit[]
    /** The nightly audit: every run since {@code since} checked, the broken ones returned, the finished archived. */
    public static List<ChainReport> audit(Worldflow wf, Instant since, Path archive) throws IOException {
        RunQuery day = RunQuery.all().withCreated(since, null);
        List<ChainReport> broken = wf.audit().verifyAll(day);
        RunQuery finished = day.withStatuses(RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.CANCELED);
        for (RunPage page = wf.runs(finished); ; page = wf.runs(finished.withCursor(page.nextCursor()))) {
            for (RunInfo run : page.runs()) { // a page at a time: a query gives at most its limit of runs
                Files.writeString(
                        archive.resolve(run.runId() + ".json"), wf.audit().exportLog(run.runId()));
            }
            if (!page.hasMore()) {
                break;
            }
        }
        return broken;
    }

    /** An archived log, checked by anyone who has the file: no world, no database. */
    public static ChainReport checkArchived(Path file) throws IOException {
        return LogChain.verify(LogChain.read(Files.readString(file)));
    }
    // end::audit[]
}
