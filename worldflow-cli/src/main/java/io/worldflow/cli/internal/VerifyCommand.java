package io.worldflow.cli.internal;

import io.worldflow.ChainReport;
import io.worldflow.RunNotFoundException;
import io.worldflow.RunQuery;
import io.worldflow.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code worldflow verify}: checks runs' hash-chained logs as stored. A broken chain is what this command looks for,
 * so finding one ends it with {@link ExitCodes#PROBLEM}.
 */
@Command(
        name = "verify",
        description = "Checks runs' hash-chained logs as stored: whether every record and the run's head are as they"
                + " were written, and if not the first seq where they are not. Exit status 1 when a chain is broken.")
public final class VerifyCommand extends BackendCommand {

    private static final int PAGE = 200;

    @Parameters(arity = "0..*", paramLabel = "ID", description = "The runs to check.")
    List<String> runIds = new ArrayList<>();

    @Option(names = "--all", description = "Every run the filters match (every run without filters).")
    boolean all;

    @Mixin
    RunFilters filters;

    @Mixin
    JsonFlag json;

    @Override
    protected void check() {
        if (runIds.isEmpty() == !all) {
            throw new CliException(ExitCodes.USAGE, "give run ids, or --all (with filters, if any), not both");
        }
        if (!all && filters.any()) {
            throw new CliException(ExitCodes.USAGE, "filters go with --all");
        }
        filters.query(PAGE, null);
    }

    @Override
    protected int run(Backend backend) {
        List<ChainReport> reports = new ArrayList<>();
        long checked = 0;
        // an intact chain that does not begin at the log's first event leaves the records before it unchecked: written
        // before there was a chain, or its links stripped, which an unkeyed chain cannot tell apart
        long notFromStart = 0;
        if (!all) {
            for (String runId : runIds) {
                ChainReport report = backend.verify(runId);
                reports.add(report);
                checked++;
                notFromStart += report.intact() && report.chainedFrom() > 0 ? 1 : 0;
            }
        } else {
            RunQuery query = filters.query(PAGE, null);
            try (Progress progress = Progress.start("verify", () -> backend.count(query))) {
                for (String cursor = null; ; ) {
                    RunList page = backend.runs(query.withCursor(cursor));
                    for (RunSummary run : page.runs()) {
                        try {
                            ChainReport report = backend.verify(run.runId());
                            checked++;
                            notFromStart += report.intact() && report.chainedFrom() > 0 ? 1 : 0;
                            // over many runs, the broken ones are the news
                            if (!report.intact()) {
                                reports.add(report);
                            }
                        } catch (RunNotFoundException gone) {
                            // deleted (retention) since the page was read: nothing left to check
                        }
                        progress.step();
                    }
                    if ((cursor = page.nextCursor()) == null) {
                        break;
                    }
                }
            }
        }
        long broken = reports.stream().filter(r -> !r.intact()).count();
        if (json.on) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("checked", checked);
            out.put("broken", broken);
            out.put("notChainedFromStart", notFromStart);
            out.put("reports", reports.stream().map(VerifyCommand::view).toList());
            JsonOutput.print(out(), out);
        } else {
            reports.forEach(r -> out().println(line(r)));
            if (all || checked > 1) {
                out().println("checked " + checked + (checked == 1 ? " run: " : " runs: ")
                        + (broken == 0 ? "every chain holds" : broken + " broken")
                        + (notFromStart == 0
                                ? ""
                                : "; " + notFromStart + (notFromStart == 1 ? " run's chain does" : " runs' chains do")
                                        + " not begin at its first event, so the records before it are not"
                                        + " covered (written before the chain, or their links removed)"));
            }
            out().flush();
        }
        return broken == 0 ? ExitCodes.OK : ExitCodes.PROBLEM;
    }

    private static String line(ChainReport r) {
        if (r.intact()) {
            return "run " + r.runId() + ": chain holds (" + r.logLength() + " events"
                    + (r.chainedFrom() > 0 ? ", chained from seq " + r.chainedFrom() : "") + ", head "
                    + (r.head() == null ? "none" : abbreviated(r.head())) + ")";
        }
        return "run " + r.runId() + ": chain BROKEN at seq " + r.brokenAt() + ": " + r.problem();
    }

    private static String abbreviated(String head) {
        return head.length() > 16 ? head.substring(0, 16) + "..." : head;
    }

    private static Map<String, Object> view(ChainReport r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("runId", r.runId());
        m.put("intact", r.intact());
        m.put("logLength", r.logLength());
        m.put("chainedFrom", r.chainedFrom());
        m.put("head", r.head());
        m.put("brokenAt", r.brokenAt());
        m.put("problem", r.problem());
        return m;
    }
}
