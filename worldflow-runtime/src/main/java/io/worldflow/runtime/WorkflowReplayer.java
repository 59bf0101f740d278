package io.worldflow.runtime;

import io.worldflow.NonDeterministicWorkflowException;
import io.worldflow.SerializationException;
import io.worldflow.Workflow;
import io.worldflow.WorldflowException;
import io.worldflow.event.Event;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.format.EventFormat;
import io.worldflow.format.LogChain;
import io.worldflow.runtime.internal.Registry;
import io.worldflow.runtime.internal.ReplayRun;
import io.worldflow.spi.StoredLog;
import io.worldflow.spi.StoredRecord;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Runs the current code of workflows against saved histories, with no world and no writes, and reports where the
 * code no longer matches them: the check a worker makes when it resumes a run, made before a deploy. A history is a
 * run's whole log, as {@code Worldflow.events(runId)} reads it, as the HTTP API exports it
 * ({@code GET /api/runs/{id}/events?format=codec}), or as the hash chain's export holds it
 * ({@code GET /api/runs/{id}/chain/export}).
 *
 * <pre>{@code
 * WorkflowReplayer replayer = WorkflowReplayer.of(List.of(fulfil, refund));
 * replayer.replayAll(Path.of("src/test/resources/histories")).assertNoDivergence();
 * }</pre>
 *
 * <p>Where a worker would do something the history does not hold — run a step, wait for a signal that has not
 * come — the replay stops: the code has caught up with the history. A history that ends the run must be ended the
 * same way, with nothing left over and nothing more done.
 */
public final class WorkflowReplayer {

    /** How one replay ended. */
    public enum Outcome {
        /** The code ends the run as the history does, reaching every recorded primitive in order. */
        MATCHED,
        /** The code agrees with the whole history of a run that has not ended, and would go on from its end. */
        CAUGHT_UP,
        /** The code no longer matches the history: a worker would hold the run. */
        DIVERGED,
        /** The history could not be replayed: unreadable, of an unregistered workflow, or the code never got there. */
        FAILED
    }

    /**
     * One history replayed.
     *
     * @param source   where it came from: its file, or "history" for one given as events
     * @param runId    its run, or null when it could not be read
     * @param workflow its workflow, or null when it could not be read
     * @param events   how many events it holds
     * @param detail   what the code did at the point the replay ended: the divergence, named by event and primitive
     */
    public record Result(String source, String runId, String workflow, int events, Outcome outcome, String detail) {

        public boolean ok() {
            return outcome == Outcome.MATCHED || outcome == Outcome.CAUGHT_UP;
        }

        @Override
        public String toString() {
            return source + ": " + outcome + (runId == null ? "" : " (run " + runId + ", " + workflow + ")") + ": "
                    + detail;
        }
    }

    /** The histories of a folder replayed. */
    public record Report(List<Result> results) {

        public Report {
            results = List.copyOf(results);
        }

        /** Those that diverged or could not be replayed. */
        public List<Result> failures() {
            return results.stream().filter(r -> !r.ok()).toList();
        }

        /**
         * @throws NonDeterministicWorkflowException naming every history that diverged or failed, the first one's run
         *                                           as its run
         */
        public void assertNoDivergence() {
            List<Result> failed = failures();
            if (!failed.isEmpty()) {
                StringBuilder message =
                        new StringBuilder(failed.size() + " of " + results.size() + " histories do not replay:");
                failed.forEach(r -> message.append("\n  ").append(r));
                throw new NonDeterministicWorkflowException(failed.getFirst().runId(), message.toString());
            }
        }
    }

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Registry registry;
    private final JsonCodec codec;

    private WorkflowReplayer(Registry registry, JsonCodec codec) {
        this.registry = registry;
        this.codec = Objects.requireNonNull(codec, "codec");
    }

    private WorkflowReplayer(Collection<?> workflows, JsonCodec codec) {
        this.registry = new Registry();
        this.codec = Objects.requireNonNull(codec, "codec");
        for (Object w : workflows) {
            if (w instanceof Workflow<?, ?> workflow) {
                registry.register(workflow);
            } else {
                registry.registerAnnotated(Objects.requireNonNull(w, "workflow"));
            }
        }
    }

    /**
     * A replayer of these workflows: {@link Workflow}s, or objects with {@link io.worldflow.annotation.WorkflowMethod}s,
     * as {@code Worldflow.Builder.register} takes them. Payloads are read with a default {@link JsonCodec}.
     */
    public static WorkflowReplayer of(Collection<?> workflows) {
        return new WorkflowReplayer(workflows, new JsonCodec());
    }

    /** A replayer whose payloads are read with {@code codec}: the application's, with its keys when payloads are sealed. */
    public static WorkflowReplayer of(Collection<?> workflows, JsonCodec codec) {
        return new WorkflowReplayer(workflows, codec);
    }

    /**
     * Replays one history with {@code workflow}'s current code.
     *
     * @throws NonDeterministicWorkflowException when the code no longer matches it, naming the event and primitive
     * @throws WorldflowException                when it cannot be replayed (another workflow's, not a whole log)
     */
    public static Result replay(Workflow<?, ?> workflow, List<Event> history) {
        return of(List.of(workflow)).replay(history);
    }

    /** Replays every history of {@code directory} with these workflows' current code; see {@link #replayAll(Path)}. */
    public static Report replayAll(Collection<?> workflows, Path directory) {
        return of(workflows).replayAll(directory);
    }

    /** A replayer of the workflows a {@link Worldflow} has registered, with its codec. */
    static WorkflowReplayer of(Registry registry, JsonCodec codec) {
        return new WorkflowReplayer(registry, codec);
    }

    /**
     * What replaying one history finds, a divergence included, without throwing for it.
     *
     * @throws WorldflowException when it is not a whole log of one run
     */
    public Result check(List<Event> history) {
        return run("history", history);
    }

    /**
     * Replays one history.
     *
     * @throws NonDeterministicWorkflowException when the code no longer matches it, naming the event and primitive
     * @throws WorldflowException                when it cannot be replayed
     */
    public Result replay(List<Event> history) {
        return check(run("history", history));
    }

    /**
     * Replays the history saved in {@code file} (either export).
     *
     * @throws NonDeterministicWorkflowException when the code no longer matches it
     * @throws WorldflowException                when it cannot be read or replayed
     */
    public Result replay(Path file) {
        return check(run(file.toString(), read(file)));
    }

    /**
     * Replays every {@code .json} history under {@code directory} (its subfolders too, in name order), each on its
     * own: one that diverges or cannot be read is reported, not thrown.
     *
     * @throws UncheckedIOException when the folder cannot be listed
     */
    public Report replayAll(Path directory) {
        List<Path> files;
        try (Stream<Path> all = Files.walk(directory)) {
            files = all.filter(f ->
                            Files.isRegularFile(f) && f.getFileName().toString().endsWith(".json"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list histories in " + directory, e);
        }
        List<Result> results = new ArrayList<>();
        for (Path f : files) {
            try {
                results.add(run(f.toString(), read(f)));
            } catch (WorldflowException e) {
                results.add(new Result(f.toString(), null, null, 0, Outcome.FAILED, e.getMessage()));
            }
        }
        return new Report(results);
    }

    /**
     * A saved history: a JSON array of events (the codec's timeline), or a hash chain export.
     *
     * @throws WorldflowException when the file cannot be read or holds neither
     */
    public static List<Event> read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new WorldflowException("cannot read history " + file + ": " + e, e);
        }
        try {
            return parse(text);
        } catch (SerializationException e) {
            throw new WorldflowException("history " + file + " is not a saved history: " + e.getMessage(), e);
        }
    }

    /** A saved history from its text; see {@link #read}. */
    public static List<Event> parse(String text) {
        if (text.stripLeading().startsWith("[")) {
            return new EventFormat().decodeTimeline(text);
        }
        StoredLog log = LogChain.read(text);
        EventFormat format = new EventFormat();
        List<Event> events = new ArrayList<>();
        for (StoredRecord r : log.records()) {
            events.addAll(format.decodeAll(log.runId(), r.seq(), r.text()));
        }
        return events;
    }

    private Result run(String source, List<Event> history) {
        if (history.isEmpty() || !(history.getFirst() instanceof WorkflowStarted started)) {
            throw new WorldflowException(source + " is not a whole log: it must begin with WorkflowStarted");
        }
        for (int i = 0; i < history.size(); i++) {
            if (history.get(i).seq() != i || !history.get(i).runId().equals(started.runId())) {
                throw new WorldflowException(source + " is not a whole log of one run: event #" + i + " is seq "
                        + history.get(i).seq() + " of run " + history.get(i).runId());
            }
        }
        var workflow = registry.find(started.workflow());
        if (workflow.isEmpty()) {
            return new Result(
                    source,
                    started.runId(),
                    started.workflow(),
                    history.size(),
                    Outcome.FAILED,
                    "workflow '" + started.workflow() + "' is not among those given: " + registry.names());
        }
        ReplayRun.Found found = ReplayRun.replay(workflow.get(), history, codec, TIMEOUT);
        Outcome outcome = found.verdict() == null ? Outcome.FAILED : Outcome.valueOf(found.verdict());
        return new Result(source, started.runId(), started.workflow(), history.size(), outcome, found.detail());
    }

    private static Result check(Result r) {
        if (r.outcome() == Outcome.DIVERGED) {
            throw new NonDeterministicWorkflowException(r.runId(), r.source() + ": " + r.detail());
        }
        if (r.outcome() == Outcome.FAILED) {
            throw new WorldflowException(r.toString());
        }
        return r;
    }
}
