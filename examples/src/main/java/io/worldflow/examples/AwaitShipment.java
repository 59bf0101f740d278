package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/**
 * Waits for a carrier to report a parcel delivered by asking it now and then: a few seconds apart at first, then
 * less and less often, holding no thread in between.
 */
public final class AwaitShipment {

    /** The carrier's tracking service: how many hops the parcel still has to go (0: delivered). */
    public interface Carrier {
        int hopsLeft(String parcel);
    }

    private AwaitShipment() {}

    // tag::condition[]
    public static Workflow<String, String> workflow(Carrier carrier) {
        return Workflow.define("shipment.await", String.class, (ctx, parcel) -> {
            String delivered = ctx.awaitCondition(
                    "delivered",
                    Duration.ofSeconds(1), // the first pause; then 2 s, 4 s, … up to an hour
                    Duration.ofHours(1),
                    () -> carrier.hopsLeft(parcel) == 0 ? "delivered at " + Instant.now() : null);
            return parcel + " " + delivered;
        });
    }
    // end::condition[]

    /** A parcel two hops away, waited for on the local world. */
    public static void main(String[] args) {
        AtomicInteger hops = new AtomicInteger(2);
        IntSupplier next = () -> Math.max(0, hops.getAndDecrement());
        Workflow<String, String> await = workflow(parcel -> next.getAsInt());
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", args.length > 0 ? args[0] : "await-shipment.db")
                .register(await)
                .build()) {
            wf.startWorker();
            RunHandle<String> run = wf.start(await, "parcel-" + System.currentTimeMillis());
            System.out.println(run.result(Duration.ofSeconds(30)));
        }
    }
}
