package io.worldflow.tck;

import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.ManualClock;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldContext;
import io.worldflow.spi.WorldProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;

import java.util.Objects;
import java.util.UUID;

/**
 * The base of every contract class. A world runs them all through one subclass of {@link WorldConformanceKit},
 * which says how to reach fresh storage; the kit does the rest. Time is a {@link ManualClock}: no contract sleeps.
 */
@Timeout(60)
public abstract class WorldContract {

    protected final JsonCodec codec = new JsonCodec();
    protected ManualClock clock;
    protected World world;
    private final WorldConformanceKit kit;
    private String storageId;

    /** @param kit the kit this contract runs in, which says how to reach the world and what it can do */
    protected WorldContract(WorldConformanceKit kit) {
        this.kit = Objects.requireNonNull(kit, "kit");
    }

    /** The kit this contract runs in: the world's hooks and capability flags. */
    protected WorldConformanceKit kit() {
        return kit;
    }

    /** The world under test. */
    protected WorldProvider provider() {
        return kit.provider();
    }

    /**
     * Configuration of an empty world. The same {@code storageId} must reach the same storage, so that
     * {@link #reopen()} can simulate a restart; different ids must not share data.
     */
    protected WorldConfig config(String storageId) {
        return kit.config(storageId);
    }

    @BeforeEach
    void openWorld() {
        clock = ManualClock.start();
        storageId = "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        world = open();
    }

    @AfterEach
    void closeWorld() {
        if (world != null) {
            world.close();
        }
    }

    /** Opens another world over this test's storage (as a second process or a restart would). */
    protected World open() {
        return provider().create(new WorldContext(config(storageId), clock, codec.eventCodec()));
    }

    /** Closes the world and opens it again over the same storage, as after a process restart. */
    protected World reopen() {
        world.close();
        world = open();
        return world;
    }

    protected String storageId() {
        return storageId;
    }
}
