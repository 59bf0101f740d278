package io.worldflow.runtime.internal;

/**
 * A worker's slots, beyond the runs it holds: how many its loop is leasing for, and whether a run started in this
 * process may take a free one at once. That is only while the loop's last lease found the queue drained (it got
 * fewer turns than it asked for): a run started here then jumps no turn that was due before it. While due turns
 * wait, every free slot goes to the loop, which leases in priority and due order. The caller holds this object's
 * monitor around each call together with what it does to its set of held runs, so that counting and holding are
 * one step.
 */
final class Slots {

    private final int concurrency;
    private final int maxBatch;
    /** Slots the loop's lease in progress may fill: counted as taken until its turns are held. */
    private int leasing;
    /** Whether due turns may be waiting: true until a lease finds the queue drained. */
    private boolean backlog = true;

    Slots(int concurrency, int maxBatch) {
        this.concurrency = concurrency;
        this.maxBatch = maxBatch;
    }

    /** The loop is about to lease: how many turns to ask for with {@code held} runs held, counted as taken. */
    int beginLeasing(int held) {
        leasing = Math.max(0, Math.min(concurrency - held, maxBatch));
        return leasing;
    }

    /** The lease asked for {@code asked} turns and got {@code got}, now held; or it failed ({@code got} < 0). */
    void leased(int asked, int got) {
        leasing = 0;
        if (got >= 0) {
            backlog = got >= asked;
        }
    }

    /** How many runs started in this process may take a slot now, with {@code held} runs held. */
    int roomHere(int held) {
        return backlog ? 0 : Math.max(0, concurrency - held - leasing);
    }

    /** Whether a run started in this process may take a slot now, with {@code held} runs held. */
    boolean mayStartHere(int held) {
        return roomHere(held) > 0;
    }
}
