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
     * {@link io.worldflow.spi.WorkerAccess#appendLeasingStarts} lease a new run's turn to the caller, and its
     * {@link io.worldflow.spi.WorkerAccess#moveLeasing} a moved one. A world whose access creates and moves only (as
     * {@link io.worldflow.spi.PlainWorkerAccess} does) says false, and the kit checks that its turns are then leased
     * the usual way.
     */
    protected boolean leasesAtCreation() {
        return false;
    }

    /**
     * Everything the world stores for {@code storageId} as text: its files' bytes, its rows, its items, as found in
     * the database itself. The kit looks in it for values that must never be stored in clear (encrypted payloads).
     */
    protected abstract String storedText(String storageId) throws Exception;

    /** An edit of a run's stored log made behind the world's back, which its hash chain must reveal. */
    public enum Tamper {
        /** One byte of the stored record that begins at {@code seq} changed (its length kept). */
        CHANGE_BYTE,
        /** The record that begins at {@code seq} removed (the run's length kept). */
        DELETE_RECORD,
        /**
         * The record that begins at {@code seq} and the record after it exchange their stored events and links, each
         * keeping its place (seq range): a reordered pair.
         */
        SWAP_WITH_NEXT,
        /** The run's last record removed (the run's length and head kept); {@code seq} is that record's. */
        TRUNCATE_TAIL,
        /** The run's head set to the link of the record that begins at {@code seq}, an earlier one than its last. */
        ROLL_BACK_HEAD,
        /**
         * Every record's link and the run's head removed, then one byte of the record that begins at {@code seq}
         * changed: the log made to look as if written before the world kept links, and edited.
         */
        STRIP_LINKS,
        /** The run's stored status set to {@code FAILED} (a completed run), its log left as it is. */
        FORGE_STATUS,
        /** The run's stored output set to the JSON string {@code "forged"}, its log left as it is. */
        FORGE_OUTPUT,
        /** The run's stored input set to the JSON string {@code "forged"}, its log left as it is. */
        FORGE_INPUT,
        /**
         * The run's stored search attributes, as readers are served them, set to one: {@code customer} =
         * {@code "forged"}; its log left as it is.
         */
        FORGE_ATTRIBUTES;

        /** Whether the edit is to the run's stored state beside its log, rather than to the log. */
        public boolean forgesState() {
            return name().startsWith("FORGE_");
        }
    }

    /**
     * Edits the stored log of {@code runId} in {@code storageId} directly in the database (its rows, its items), as
     * someone with access to the database could, while no world is open on it. {@code seq} is the first seq of a
     * record of the run that is neither its first nor its last (nor the last but one, for {@link Tamper#SWAP_WITH_NEXT}),
     * except for {@link Tamper#TRUNCATE_TAIL}, where it is the last record's; an edit that {@link Tamper#forgesState}
     * ignores it.
     */
    protected abstract void tamper(String storageId, String runId, Tamper how, long seq) throws Exception;

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
    @Tag("LogChain")
    class LogChain extends LogChainContract {
        LogChain() {
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

    @Nested
    @Tag("Search")
    class SearchIndex extends SearchIndexContract {
        SearchIndex() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("Search")
    class SearchWorkflow extends SearchWorkflowContract {
        SearchWorkflow() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("Replay")
    class Replay extends ReplayContract {
        Replay() {
            super(WorldConformanceKit.this);
        }
    }

    @Nested
    @Tag("Migration")
    class Migration extends MigrationContract {
        Migration() {
            super(WorldConformanceKit.this);
        }
    }
}
