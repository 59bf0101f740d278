package io.worldflow.runtime.internal;

import io.worldflow.NonDeterministicWorkflowException;
import io.worldflow.event.Event;
import io.worldflow.event.PrimitiveEvent;
import io.worldflow.event.WorkflowCancelRequested;
import io.worldflow.event.WorkflowContinuedAsNew;

import java.util.List;

/**
 * What a replay of a saved history finds, as the run's code meets the points where a worker would write: the code
 * diverges from the history (the check a worker applies, which would hold the run), or it reaches the history's end
 * in agreement with it. Nothing is written and nothing runs live: where a worker would go on, the replay stops.
 */
final class Replay {

    /** How a replay ended. */
    enum Verdict {
        /** The code ends the run as the history does, every recorded primitive reached in order. */
        MATCHED,
        /** The code agrees with the whole history and would go on from its end (a run not ended yet). */
        CAUGHT_UP,
        /** The code no longer matches the history. */
        DIVERGED
    }

    private final Event last;
    private final boolean ended;
    private volatile Verdict verdict;
    private volatile String detail;

    Replay(List<Event> history) {
        this.last = history.getLast();
        this.ended = isEnd(last);
    }

    Verdict verdict() {
        return verdict;
    }

    String detail() {
        return detail;
    }

    /**
     * The code is about to do something the history does not hold ({@code what}): for a history that ends the run, a
     * divergence; else the replay has caught up with the history. Stops the turn.
     */
    ExecutionStop live(RunExecution exec, String what) {
        if (exec.nondeterminism() != null) {
            return diverged(exec, reason(exec.nondeterminism()));
        }
        if (ended) {
            return diverged(exec, "the history ends with " + describe(last) + ", but the code now " + what);
        }
        return decide(exec, Verdict.CAUGHT_UP, "the code reaches the end of the history and would go on: " + what);
    }

    /**
     * The code records {@code e}: an end of the run is compared with the history's, a primitive's event goes live;
     * null for what only leads to an end (the cancellation request recorded just before a run's cancellation).
     */
    ExecutionStop recorded(RunExecution exec, Event e) {
        if (e instanceof WorkflowCancelRequested) {
            return null;
        }
        if (!isEnd(e)) {
            return live(exec, "records " + describe(e));
        }
        if (exec.nondeterminism() != null) {
            return diverged(exec, reason(exec.nondeterminism()));
        }
        if (!ended) {
            return decide(exec, Verdict.CAUGHT_UP, "the code ends the run (" + e.type() + ") where the history stops");
        }
        if (e.getClass() != last.getClass()) {
            return diverged(
                    exec,
                    "the history ends with " + describe(last) + ", but the code now ends the run with " + e.type());
        }
        return decide(exec, Verdict.MATCHED, "the code ends the run with " + e.type() + ", as the history does");
    }

    /** The turn would end with every thread waiting, with nothing more to write than its suspension. */
    ExecutionStop suspended(RunExecution exec) {
        return live(exec, "waits for what the history does not hold yet");
    }

    /** The run would be held: its code no longer matches the history, or cannot read it. */
    void held(RunExecution exec, RuntimeException why) {
        decide(exec, Verdict.DIVERGED, reason(why));
    }

    private ExecutionStop diverged(RunExecution exec, String why) {
        return decide(exec, Verdict.DIVERGED, why);
    }

    private ExecutionStop decide(RunExecution exec, Verdict v, String why) {
        synchronized (this) {
            if (verdict == null) {
                verdict = v;
                detail = why;
            }
        }
        exec.threads.abort("replay: " + why);
        return new ExecutionStop(ExecutionStop.Reason.ABORTED);
    }

    /** What a hold's exception says, without the run's id that the replay's own report gives. */
    private static String reason(RuntimeException why) {
        String message = why.getMessage();
        String prefix = why instanceof NonDeterministicWorkflowException n
                ? "run '" + n.runId() + "' no longer matches its history: "
                : "";
        return message != null && message.startsWith(prefix) ? message.substring(prefix.length()) : String.valueOf(why);
    }

    private static boolean isEnd(Event e) {
        return e.isTerminal() || e instanceof WorkflowContinuedAsNew;
    }

    static String describe(Event e) {
        String primitive = e instanceof PrimitiveEvent p ? " of '" + p.primitiveId() + "'" : "";
        return e.type() + primitive + " (seq " + e.seq() + ")";
    }
}
