package io.worldflow.cli.internal;

import io.worldflow.QueueSpec;
import io.worldflow.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Duration;
import java.time.format.DateTimeParseException;

/**
 * {@code worldflow queues …}: the world's queues with limits, read and changed. A change made here holds for every
 * worker at once, as one made in the application's code ({@code wf.queues().define}) or on the dashboard does.
 */
@Command(
        name = "queues",
        description = "List or show the queues with limits, or set a queue's limits.",
        subcommands = {QueuesCommand.ListQueues.class, QueuesCommand.Show.class, QueuesCommand.Set.class})
public final class QueuesCommand extends CommandGroup {

    @Command(name = "list", description = "Every queue with limits, in name order, with its running and waiting runs.")
    static final class ListQueues extends BackendCommand {

        @Mixin
        JsonFlag json;

        @Override
        protected int run(Backend backend) {
            return printList(
                    json.on,
                    "queues",
                    backend.queues(),
                    "no queues with limits",
                    new Table(
                            "QUEUE",
                            "CONCURRENCY",
                            "PER WORKER",
                            "PER KEY",
                            "RATE",
                            "RUNNING",
                            "WAITING",
                            "THROTTLED",
                            "SET BY"),
                    (table, q) -> table.row(
                            q.name(),
                            limit(q.concurrency()),
                            limit(q.workerConcurrency()),
                            String.valueOf(q.keyConcurrency()),
                            rate(q),
                            String.valueOf(q.running()),
                            waiting(q),
                            String.valueOf(q.throttled()),
                            q.changedBy()));
        }
    }

    @Command(name = "show", description = "A queue: its limits, who set them, and its running and waiting runs.")
    static final class Show extends BackendCommand {

        @Parameters(paramLabel = "NAME", description = "The queue's name.")
        String name;

        @Mixin
        JsonFlag json;

        @Override
        protected int run(Backend backend) {
            print(this, backend.queue(name), json.on);
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "set",
            description = "Sets the limits given and keeps the others as they are (a new queue starts without limits);"
                    + " prints the queue as it then stands. Looser limits admit waiting runs at once.")
    static final class Set extends BackendCommand {

        @Parameters(paramLabel = "NAME", description = "The queue's name.")
        String name;

        @Option(
                names = "--concurrency",
                paramLabel = "N",
                description = "Runs admitted at once, across workers (0: no limit).")
        Integer concurrency;

        @Option(
                names = "--worker-concurrency",
                paramLabel = "N",
                description = "Turns of the queue executing at once on one worker (0: no limit).")
        Integer workerConcurrency;

        @Option(
                names = "--key-concurrency",
                paramLabel = "N",
                description = "Runs of one ordering key admitted at once.")
        Integer keyConcurrency;

        @Option(
                names = "--rate",
                paramLabel = "STARTS/PERIOD",
                description = "At most STARTS starts per PERIOD (ISO-8601), across workers: 20/PT1S.")
        String rate;

        @Option(names = "--no-rate", description = "Removes the rate limit.")
        boolean noRate;

        @Mixin
        JsonFlag json;

        @Override
        protected int run(Backend backend) {
            if (rate != null && noRate) {
                throw new CliException(ExitCodes.USAGE, "give --rate or --no-rate, not both");
            }
            if (concurrency == null && workerConcurrency == null && keyConcurrency == null && rate == null && !noRate) {
                throw new CliException(
                        ExitCodes.USAGE,
                        "give at least one limit to set: --concurrency, --worker-concurrency, --key-concurrency, --rate"
                                + " or --no-rate");
            }
            QueueSpec.checkName("queue name", name);
            Rate parsed = rate == null ? null : Rate.parse(rate);
            QueueSpec spec = current(backend);
            // each limit is checked as it is set, before anything is stored
            if (concurrency != null) {
                spec = spec.withConcurrency(concurrency);
            }
            if (workerConcurrency != null) {
                spec = spec.withWorkerConcurrency(workerConcurrency);
            }
            if (keyConcurrency != null) {
                spec = spec.withKeyConcurrency(keyConcurrency);
            }
            if (parsed != null) {
                spec = spec.withRateLimit(parsed.starts(), parsed.per());
            } else if (noRate) {
                spec = spec.withoutRateLimit();
            }
            print(this, backend.defineQueue(spec), json.on);
            return ExitCodes.OK;
        }

        private QueueSpec current(Backend backend) {
            try {
                return backend.queue(name).spec();
            } catch (CliException e) {
                if (e.exitCode() == ExitCodes.NOT_FOUND) {
                    return QueueSpec.named(name);
                }
                throw e;
            }
        }
    }

    /** A rate limit as typed: {@code 20/PT1S}. */
    record Rate(int starts, Duration per) {

        static Rate parse(String text) {
            int slash = text.indexOf('/');
            try {
                if (slash > 0) {
                    return new Rate(
                            Integer.parseInt(text.substring(0, slash).strip()),
                            Duration.parse(text.substring(slash + 1).strip()));
                }
            } catch (NumberFormatException | DateTimeParseException e) {
                // said below
            }
            throw new CliException(
                    ExitCodes.USAGE,
                    "--rate must be STARTS/PERIOD with an ISO-8601 period, such as 20/PT1S, was '" + text + "'");
        }
    }

    private static String limit(int value) {
        return value == 0 ? "no limit" : String.valueOf(value);
    }

    private static String rate(QueueView q) {
        return q.rateStarts() == null ? "none" : q.rateStarts() + " per " + q.ratePer();
    }

    private static String waiting(QueueView q) {
        return q.waitingCapped() ? q.waiting() + "+" : String.valueOf(q.waiting());
    }

    private static void print(CliCommand command, QueueView q, boolean json) {
        if (json) {
            JsonOutput.print(command.out(), q);
            return;
        }
        var out = command.out();
        out.printf("%-14s %s%n", "queue", q.name());
        out.printf("%-14s %s%n", "concurrency", limit(q.concurrency()));
        out.printf("%-14s %s%n", "per worker", limit(q.workerConcurrency()));
        out.printf("%-14s %s%n", "per key", q.keyConcurrency());
        out.printf("%-14s %s%n", "rate", rate(q));
        out.printf("%-14s %s%n", "running", q.running());
        out.printf("%-14s %s (throttled %d)%n", "waiting", waiting(q), q.throttled());
        out.printf("%-14s %s%n", "set by", Table.cell(q.changedBy()));
        out.printf("%-14s %s%n", "set at", Table.cell(q.changedAt()));
        out.printf("%-14s %s%n", "updated", Table.cell(q.updatedAt()));
        out.flush();
    }
}
