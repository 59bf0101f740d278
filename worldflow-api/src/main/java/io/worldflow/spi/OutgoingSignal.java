package io.worldflow.spi;

import io.worldflow.Payload;

import java.util.Objects;

/**
 * A signal that an {@link Append} sends to another run, stored as {@link Signals#send(String, String, Payload, String)}
 * stores it, except that a run that does not exist or has finished is skipped silently.
 *
 * @param runId   the run it goes to
 * @param name    the signal name
 * @param payload its body ({@link Payload#NULL} when null)
 * @param key     an idempotency key ({@link SignalKey}), or null for none
 */
public record OutgoingSignal(String runId, String name, Payload payload, String key) {

    public OutgoingSignal {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(name, "name");
        payload = payload == null ? Payload.NULL : payload;
        SignalKey.check(key);
    }
}
