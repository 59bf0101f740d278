package io.worldflow.spi;

import java.time.InstantSource;
import java.util.Objects;

/**
 * What a world is given when it is created.
 *
 * @param config its configuration (all {@code worldflow.*} keys)
 * @param clock  the only source of time it may use: tests pass a manual clock
 * @param codec  turns events into their JSON form and back, so that every world stores the same format
 */
public record WorldContext(WorldConfig config, InstantSource clock, EventCodec codec) {

    public WorldContext {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(codec, "codec");
    }
}
