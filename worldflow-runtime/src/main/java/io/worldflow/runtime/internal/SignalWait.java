package io.worldflow.runtime.internal;

import io.worldflow.Payload;
import io.worldflow.event.SignalReceived;
import io.worldflow.event.SignalRequested;
import io.worldflow.event.SignalTimedOut;
import io.worldflow.spi.PendingSignal;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A wait for a signal in a scope of a run, once its id is taken: its recorded outcome on replay, else the request
 * recorded, then the oldest pending signal of its name taken (or its timeout), holding no thread meanwhile.
 */
final class SignalWait {

    private SignalWait() {}

    /** Whether the history holds the signal wait's outcome. */
    static boolean ended(History.Recorded recorded) {
        return recorded != null && (recorded.has(SignalReceived.class) || recorded.has(SignalTimedOut.class));
    }

    /** The signal wait's recorded outcome. */
    static <T> Optional<T> replay(RunContext ctx, String id, History.Recorded recorded, Class<T> type) {
        SignalReceived received = recorded.first(SignalReceived.class);
        return received == null ? Optional.empty() : Optional.ofNullable(decode(ctx, received.payload(), type, id));
    }

    /** When the wait times out (null: never): as recorded, or now recorded. */
    static Instant request(RunContext ctx, String id, String name, History.Recorded recorded, Duration timeout) {
        RunExecution exec = ctx.exec;
        if (recorded != null) {
            return recorded.first(SignalRequested.class).timeoutAt();
        }
        Instant timeoutAt = timeout == null ? null : exec.now().plus(timeout);
        ctx.record(seq -> new SignalRequested(exec.runId, seq, exec.now(), id, name, timeoutAt));
        return timeoutAt;
    }

    /** Waits durably for a requested signal, or its timeout, and records which came. */
    static <T> Optional<T> receive(RunContext ctx, String id, String name, Class<T> type, Instant timeoutAt) {
        return ctx.exec.threads.lookingForSignal(() -> look(ctx, id, name, type, timeoutAt));
    }

    private static <T> Optional<T> look(RunContext ctx, String id, String name, Class<T> type, Instant timeoutAt) {
        RunExecution exec = ctx.exec;
        CancelScope cancel = ctx.cancel;
        while (true) {
            long generation = exec.threads.pokeCount();
            Optional<PendingSignal> signal = exec.claimSignal(name, generation);
            if (signal.isPresent() && cancel.isCanceled()) {
                exec.runLog.unclaimSignal(signal.get());
                throw cancel.exception(exec.runId);
            }
            if (signal.isPresent()) {
                PendingSignal s = signal.get();
                ctx.record(seq ->
                        new SignalReceived(exec.runId, seq, exec.now(), id, name, s.payload(), s.sentAt(), s.actor()));
                waited(exec, id, name, false);
                return Optional.ofNullable(decode(ctx, s.payload(), type, id));
            }
            if (timeoutAt != null && !exec.now().isBefore(timeoutAt)) {
                ctx.record(seq -> new SignalTimedOut(exec.runId, seq, exec.now(), id, name));
                waited(exec, id, name, true);
                return Optional.empty();
            }
            exec.threads.awaitDurable(generation, timeoutAt, true, cancel);
            ctx.live();
        }
    }

    private static void waited(RunExecution exec, String id, String name, boolean timedOut) {
        if (exec.telemetry.on()) {
            exec.telemetry.signalWaited(
                    exec.runId, name, exec.recordedAt(id, SignalRequested.class), exec.now(), timedOut);
        }
    }

    private static <T> T decode(RunContext ctx, Payload payload, Class<T> type, String id) {
        RunExecution exec = ctx.exec;
        return exec.engine.codec.decode(payload, type, "signal '" + id + "' of run '" + exec.runId + "'");
    }
}
