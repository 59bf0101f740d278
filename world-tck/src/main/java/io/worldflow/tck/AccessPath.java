package io.worldflow.tck;

import io.worldflow.spi.PlainWorkerAccess;
import io.worldflow.spi.WorkerAccess;
import io.worldflow.spi.World;

/**
 * The two ways a worker's requests can be answered: the world's own ({@link World#workerAccess()}), which may combine
 * them, and the plain one from the other facets. Contracts on a worker's requests run over both, so a world's faster
 * path is held to the plain path's answers.
 */
public enum AccessPath {
    WORLD,
    PLAIN;

    WorkerAccess of(World world) {
        return this == WORLD ? world.workerAccess() : new PlainWorkerAccess(world);
    }
}
