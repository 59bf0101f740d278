package io.worldflow.tck;

import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldProvider;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;

/**
 * The whole conformance kit, entered once per world: a world's test module subclasses this class once, says how
 * to reach fresh storage and what the world can do, and every contract runs against it, one {@link Nested} class
 * per contract.
 *
 * <p>Per-world setup (a temporary folder, a shared server, cleaning up afterwards) goes in the subclass as
 * {@code static} fields or {@code @BeforeAll}/{@code @AfterAll} methods: they run once around all the contracts.
 * Each test still gets fresh storage through {@link #config(String)} with a new storage id.
 *
 * <p>Each nested class is tagged with its name, so that one contract can be run alone ({@code -Dgroups=TaskQueue}).
 */
public abstract class WorldConformanceKit {

    /** The world under test. */
    protected abstract WorldProvider provider();

    /**
     * Configuration of an empty world. The same {@code storageId} must reach the same storage, so that a test can
     * reopen it as after a restart; different ids must not share data.
     */
    protected abstract WorldConfig config(String storageId);

    /**
     * Whether two worlds may be open over the same storage at once (two worker processes on one database). A world
     * whose storage belongs to one process at a time says false, and the kit checks that a second one is refused.
     */
    protected boolean supportsSharedStorage() {
        return true;
    }

    /** Whether {@link io.worldflow.spi.TaskQueue#subscribe} calls its listener; without it the push tests are skipped. */
    protected boolean supportsPush() {
        return true;
    }

    /**
     * Whether its {@link io.worldflow.spi.WorkerAccess#createLeased} and
     * {@link io.worldflow.spi.WorkerAccess#appendLeasingStarts} lease a new run's turn to the caller. A world whose
     * access creates only (as {@link io.worldflow.spi.PlainWorkerAccess} does) says false, and the kit checks that its
     * turns are then leased the usual way.
     */
    protected boolean leasesAtCreation() {
        return false;
    }

    /**
     * Everything the world stores for {@code storageId} as text: its files' bytes, its rows, its items, as found in
     * the database itself. The kit looks in it for values that must never be stored in clear (encrypted payloads).
     */
    protected abstract String storedText(String storageId) throws Exception;

    @Nested
    @Tag("EventLog")
    class EventLog extends EventLogContract {
        EventLog() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("RunProjection")
    class RunProjection extends RunProjectionContract {
        RunProjection() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("AppendEffects")
    class AppendEffects extends AppendEffectsContract {
        AppendEffects() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("RunQueries")
    class RunQueries extends RunQueriesContract {
        RunQueries() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("Signals")
    class Signals extends SignalsContract {
        Signals() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("Retention")
    class Retention extends RetentionContract {
        Retention() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("Schedules")
    class Schedules extends ScheduleContract {
        Schedules() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("ScheduleStore")
    class ScheduleStore extends ScheduleStoreContract {
        ScheduleStore() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("Queues")
    class Queues extends QueueContract {
        Queues() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("QueueStore")
    class QueueStore extends QueueStoreContract {
        QueueStore() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("TaskQueue")
    class TaskQueue extends TaskQueueContract {
        TaskQueue() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("Timers")
    class Timers extends TimersContract {
        Timers() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("Worker")
    class Worker extends WorkerContract {
        Worker() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("Workflow")
    class Workflow extends WorkflowContract {
        Workflow() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("WorkflowFailure")
    class WorkflowFailure extends WorkflowFailureContract {
        WorkflowFailure() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("ChildWorkflow")
    class ChildWorkflow extends ChildWorkflowContract {
        ChildWorkflow() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("Race")
    class Race extends RaceContract {
        Race() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("Cancellation")
    class Cancellation extends CancellationContract {
        Cancellation() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("StepTimeout")
    class StepTimeout extends StepTimeoutContract {
        StepTimeout() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("ContinueAsNew")
    class ContinueAsNew extends ContinueAsNewContract {
        ContinueAsNew() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("Encryption")
    class Encryption extends EncryptionContract {
        Encryption() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("Actors")
    class Actors extends ActorContract {
        Actors() {
            super(WorldConformanceKit.this);
        }
    }
}
