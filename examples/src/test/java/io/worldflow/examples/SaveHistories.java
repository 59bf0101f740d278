package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.StartOptions;
import io.worldflow.runtime.Worldflow;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes the saved histories that {@link ReplayHistoriesTest} replays, as an application would export them from its
 * world: run it again only to add histories, never to make a failing replay pass.
 */
public final class SaveHistories {

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "examples/src/test/resources/histories");
        Files.createDirectories(out);
        Path db = Files.createTempFile("histories", ".db");
        TripBooking.Providers providers = new TripBooking.Providers() {
            public String bookFlight(String trip) {
                return "FL-" + trip;
            }

            public String bookHotel(String trip) {
                return "HO-" + trip;
            }

            public String bookCar(String trip) {
                if (trip.startsWith("no-car")) {
                    throw new IllegalStateException("no car left for " + trip);
                }
                return "CA-" + trip;
            }

            public void cancel(String confirmation) {}
        };
        AtomicInteger hops = new AtomicInteger(2);
        var trip = TripBooking.workflow(providers);
        var parcel = AwaitShipment.workflow(p -> Math.max(0, hops.getAndDecrement()));
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", db.toString())
                .register(trip)
                .register(parcel)
                .build()) {
            wf.startWorker();
            save(wf, out, "trip-booked", wf.start(trip, "lisbon", StartOptions.id("trip-booked")));
            save(wf, out, "trip-compensated", wf.start(trip, "no-car-porto", StartOptions.id("trip-compensated")));
            save(wf, out, "parcel-delivered", wf.start(parcel, "parcel-7", StartOptions.id("parcel-delivered")));
        }
        Files.deleteIfExists(db);
    }

    private static void save(Worldflow wf, Path out, String name, RunHandle<String> run) throws Exception {
        try {
            run.result(Duration.ofSeconds(60));
        } catch (RuntimeException failed) {
            // a failed run's history is as worth keeping as a completed one's
        }
        Files.writeString(out.resolve(name + ".json"), wf.codec().encodeEvents(wf.events(run.id())));
    }
}
