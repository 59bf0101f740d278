package io.worldflow.cli.internal;

import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import picocli.CommandLine.Option;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/** The filters of the runs a command goes through, as the HTTP API's list takes them; all given must hold. */
public final class RunFilters {

    @Option(
            names = "--status",
            split = ",",
            paramLabel = "STATUS",
            description = "Only runs in these statuses (repeat or separate by commas): ${COMPLETION-CANDIDATES}.")
    List<RunStatus> statuses = new ArrayList<>();

    @Option(names = "--workflow", paramLabel = "NAME", description = "Only runs of this workflow.")
    String workflow;

    @Option(names = "--queue", paramLabel = "NAME", description = "Only runs of this queue.")
    String queue;

    @Option(
            names = "--attr",
            paramLabel = "NAME:VALUE",
            description = "Only runs whose search attribute is equal (repeatable): customer:42 for a string,"
                    + " name:long:1200, name:boolean:true, name:instant:2026-11-27T10:00:00Z for other types.")
    List<String> attributes = new ArrayList<>();

    @Option(
            names = "--created-after",
            paramLabel = "INSTANT",
            converter = Inputs.InstantConverter.class,
            description = "Only runs created at or after this instant (2026-11-27T10:00:00Z, or a day: 2026-11-27).")
    Instant createdAfter;

    @Option(
            names = "--created-before",
            paramLabel = "INSTANT",
            converter = Inputs.InstantConverter.class,
            description = "Only runs created before this instant.")
    Instant createdBefore;

    @Option(names = "--held", description = "Only held runs (their code no longer matches their history).")
    boolean held;

    /** Whether any filter was given: a command that acts on many runs asks for one, or for --all. */
    boolean any() {
        return !statuses.isEmpty()
                || workflow != null
                || queue != null
                || !attributes.isEmpty()
                || createdAfter != null
                || createdBefore != null
                || held;
    }

    /** The query of these filters, a page of {@code limit} runs from {@code cursor}. */
    RunQuery query(int limit, String cursor) {
        return new RunQuery(
                new HashSet<>(statuses),
                held ? Boolean.TRUE : null,
                workflow,
                null,
                createdAfter,
                createdBefore,
                limit,
                cursor,
                null,
                Inputs.attributes(attributes),
                queue,
                null,
                null);
    }
}
