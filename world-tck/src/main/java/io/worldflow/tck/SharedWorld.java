package io.worldflow.tck;

import io.worldflow.spi.EventLog;
import io.worldflow.spi.QueueStore;
import io.worldflow.spi.RunQueries;
import io.worldflow.spi.ScheduleStore;
import io.worldflow.spi.Signals;
import io.worldflow.spi.TaskQueue;
import io.worldflow.spi.WorkerAccess;
import io.worldflow.spi.World;

/** Lends a world to a second Worldflow (a second worker) without letting it close the world. */
class SharedWorld implements World {

    private final World world;

    SharedWorld(World world) {
        this.world = world;
    }

    @Override
    public String name() {
        return world.name();
    }

    @Override
    public EventLog eventLog() {
        return world.eventLog();
    }

    @Override
    public TaskQueue taskQueue() {
        return world.taskQueue();
    }

    @Override
    public Signals signals() {
        return world.signals();
    }

    @Override
    public RunQueries runQueries() {
        return world.runQueries();
    }

    @Override
    public ScheduleStore schedules() {
        return world.schedules();
    }

    @Override
    public QueueStore queues() {
        return world.queues();
    }

    @Override
    public WorkerAccess workerAccess() {
        return world.workerAccess();
    }

    @Override
    public void close() {
        // the owner closes it
    }
}
