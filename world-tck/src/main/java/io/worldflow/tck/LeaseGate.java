package io.worldflow.tck;

import io.worldflow.spi.LeasedRuns;
import io.worldflow.spi.WorkerAccess;
import io.worldflow.spi.World;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The kit's world, lent as {@link SharedWorld} lends it, holding the first lease a worker asks for once {@link #arm
 * armed} until {@link #open}: how a test puts a change between a worker's planning a lease and the lease.
 */
final class LeaseGate extends SharedWorld {

    private final World world;
    private final AtomicBoolean armed = new AtomicBoolean();
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch open = new CountDownLatch(1);
    private final AtomicReference<Set<String>> heldFor = new AtomicReference<>();
    private final AtomicInteger leasedWhenOpened = new AtomicInteger(-1);

    LeaseGate(World world) {
        super(world);
        this.world = world;
    }

    /** The next lease asked for is held. */
    void arm() {
        armed.set(true);
    }

    /** The queues the held lease asks for, once a worker asks; null when none did within {@code wait}. */
    Set<String> awaitHeld(Duration wait) throws InterruptedException {
        return held.await(wait.toMillis(), TimeUnit.MILLISECONDS) ? heldFor.get() : null;
    }

    /** Lets the held lease go on. */
    void open() {
        open.countDown();
    }

    /** The turns the held lease took once let go; -1 until then. */
    int leasedWhenOpened() {
        return leasedWhenOpened.get();
    }

    @Override
    public WorkerAccess workerAccess() {
        return new ForwardingWorkerAccess(world.workerAccess()) {
            @Override
            public LeasedRuns leaseAndLoad(
                    String workerId, Set<String> queues, int max, Duration leaseFor, Duration lookahead) {
                if (!armed.compareAndSet(true, false)) {
                    return super.leaseAndLoad(workerId, queues, max, leaseFor, lookahead);
                }
                heldFor.set(queues);
                held.countDown();
                try {
                    open.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                LeasedRuns got = super.leaseAndLoad(workerId, queues, max, leaseFor, lookahead);
                leasedWhenOpened.set(got.leases().size());
                return got;
            }
        };
    }
}
