package io.worldflow.cli.internal;

import io.worldflow.RunQuery;
import io.worldflow.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code worldflow runs list}: one page of runs, newest first. */
@Command(
        name = "list",
        description = "Runs, newest first, a page at a time (the next page: --cursor, as printed at the end).")
final class ListRunsCommand extends BackendCommand {

    @Mixin
    RunFilters filters;

    @Mixin
    JsonFlag json;

    @Option(
            names = "--limit",
            paramLabel = "N",
            defaultValue = "50",
            description = "Runs per page, 1..1000 (default 50).")
    int limit;

    @Option(
            names = "--cursor",
            paramLabel = "CURSOR",
            description = "Where the page starts: the previous page's next cursor.")
    String cursor;

    @Override
    protected void check() {
        if (limit < 1 || limit > RunQuery.MAX_LIMIT) {
            throw new CliException(ExitCodes.USAGE, "--limit must be 1.." + RunQuery.MAX_LIMIT + ", was " + limit);
        }
        filters.query(limit, cursor); // a bad --attr is said before anything is opened
    }

    @Override
    protected int run(Backend backend) {
        RunList page = backend.runs(filters.query(limit, cursor));
        if (json.on) {
            JsonOutput.print(out(), page);
            return ExitCodes.OK;
        }
        if (page.runs().isEmpty()) {
            out().println("no runs");
        } else {
            Table table = new Table("RUN", "WORKFLOW", "STATUS", "CREATED", "UPDATED", "ATTRIBUTES");
            for (RunSummary r : page.runs()) {
                String status = r.heldReason() == null ? r.status() : r.status() + " (held)";
                table.row(r.runId(), r.workflow(), status, r.createdAt(), r.updatedAt(), r.attributes());
            }
            table.print(out());
        }
        if (page.nextCursor() != null) {
            out().println("more: --cursor " + page.nextCursor());
        }
        return ExitCodes.OK;
    }
}
