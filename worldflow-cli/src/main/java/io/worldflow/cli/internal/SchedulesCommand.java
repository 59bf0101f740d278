package io.worldflow.cli.internal;

import io.worldflow.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code worldflow schedules …}: the world's schedules, read and paused, resumed, triggered or deleted. Creating and
 * changing them stays with the application's code, which declares them with their workflows.
 */
@Command(
        name = "schedules",
        description = "List, show, pause, resume, trigger or delete the world's schedules.",
        subcommands = {
            SchedulesCommand.ListSchedules.class,
            SchedulesCommand.Show.class,
            SchedulesCommand.Pause.class,
            SchedulesCommand.Resume.class,
            SchedulesCommand.Trigger.class,
            SchedulesCommand.Delete.class
        })
public final class SchedulesCommand extends CommandGroup {

    @Command(name = "list", description = "Every schedule, in id order.")
    static final class ListSchedules extends BackendCommand {

        @Mixin
        JsonFlag json;

        @Override
        protected int run(Backend backend) {
            return printList(
                    json.on,
                    "schedules",
                    backend.schedules(),
                    "no schedules",
                    new Table("SCHEDULE", "WORKFLOW", "WHEN", "ZONE", "PAUSED", "NEXT", "LAST RUN"),
                    (table, s) -> table.row(
                            s.id(),
                            s.workflow(),
                            when(s),
                            s.zone(),
                            s.paused() ? "yes" : "no",
                            s.nextFireAt(),
                            s.lastRunId()));
        }
    }

    /** A command on one schedule that prints the schedule as it then stands. */
    abstract static class OneSchedule extends BackendCommand {

        @Parameters(paramLabel = "ID", description = "The schedule's id.")
        String id;

        @Mixin
        JsonFlag json;

        /** Does what the command does to the schedule, returning it as it is after. */
        abstract ScheduleView act(Backend backend, String id);

        @Override
        protected int run(Backend backend) {
            print(this, act(backend, id), json.on);
            return ExitCodes.OK;
        }
    }

    @Command(name = "show", description = "A schedule: what it starts and when, its next fire times, its last run.")
    static final class Show extends OneSchedule {
        @Override
        ScheduleView act(Backend backend, String id) {
            return backend.schedule(id);
        }
    }

    @Command(name = "pause", description = "Pauses a schedule: it starts nothing until resumed.")
    static final class Pause extends OneSchedule {
        @Override
        ScheduleView act(Backend backend, String id) {
            return backend.pause(id);
        }
    }

    @Command(
            name = "resume",
            description = "Resumes a schedule from its next fire time; what it missed starts nothing.")
    static final class Resume extends OneSchedule {
        @Override
        ScheduleView act(Backend backend, String id) {
            return backend.resume(id);
        }
    }

    @Command(
            name = "trigger",
            description = "Starts a run now, as if now were a fire time (the overlap policy applies): prints its id.")
    static final class Trigger extends BackendCommand {

        @Parameters(paramLabel = "ID", description = "The schedule's id.")
        String id;

        @Override
        protected int run(Backend backend) {
            out().println(backend.trigger(id)
                    .map(runId -> "started run " + runId)
                    .orElse("started no run: the overlap policy skipped it while the previous run goes on"));
            out().flush();
            return ExitCodes.OK;
        }
    }

    @Command(name = "delete", description = "Deletes a schedule (the runs it started are left as they are).")
    static final class Delete extends BackendCommand {

        @Parameters(paramLabel = "ID", description = "The schedule's id.")
        String id;

        @Override
        protected int run(Backend backend) {
            backend.deleteSchedule(id);
            out().println("deleted schedule " + id);
            out().flush();
            return ExitCodes.OK;
        }
    }

    private static String when(ScheduleView s) {
        return s.cron() != null ? "cron " + s.cron() : "every " + s.every();
    }

    /** The last run's status, and its hold, which stops a schedule that waits for it. */
    private static String lastRunState(ScheduleView s) {
        if (s.lastRunStatus() == null) {
            return "";
        }
        return " (" + s.lastRunStatus() + (s.lastRunHeld() == null ? "" : ", held: " + Table.cell(s.lastRunHeld()))
                + ")";
    }

    private static void print(CliCommand command, ScheduleView s, boolean json) {
        if (json) {
            JsonOutput.print(command.out(), s);
            return;
        }
        var out = command.out();
        out.printf("%-10s %s%n", "schedule", s.id());
        out.printf("%-10s %s%n", "workflow", s.workflow());
        out.printf("%-10s %s (%s), overlap %s%n", "when", when(s), s.zone(), s.overlap());
        out.printf("%-10s %s%n", "paused", s.paused() ? "yes" : "no");
        out.printf("%-10s %s%n", "next", Table.exact(s.upcoming().isEmpty() ? s.nextFireAt() : s.upcoming()));
        out.printf("%-10s %s%n", "last fire", Table.exact(s.lastFireAt()));
        out.printf("%-10s %s%s%n", "last run", Table.cell(s.lastRunId()), lastRunState(s));
        out.printf("%-10s %s%n", "changed by", Table.cell(s.changedBy()));
        out.flush();
    }
}
