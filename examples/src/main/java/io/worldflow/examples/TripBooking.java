package io.worldflow.examples;

import io.worldflow.Saga;
import io.worldflow.StepFailedException;
import io.worldflow.Workflow;

/**
 * A trip booked as a saga: a flight, then a hotel, then a car; when one cannot be booked, what was booked is
 * cancelled, newest first, each cancellation a recorded step with its own retries.
 */
public final class TripBooking {

    /** The providers the trip is booked with; each booking returns its confirmation. */
    public interface Providers {
        String bookFlight(String trip);

        String bookHotel(String trip);

        String bookCar(String trip);

        void cancel(String confirmation);
    }

    private TripBooking() {}

    // tag::saga[]
    public static Workflow<String, String> workflow(Providers providers) {
        return Workflow.define("trip.book", String.class, (ctx, trip) -> {
            Saga saga = new Saga(ctx);
            try {
                String flight = ctx.step("flight", () -> providers.bookFlight(trip));
                saga.addCompensation("cancel-flight", () -> cancel(providers, flight));
                String hotel = ctx.step("hotel", () -> providers.bookHotel(trip));
                saga.addCompensation("cancel-hotel", () -> cancel(providers, hotel));
                String car = ctx.step("car", () -> providers.bookCar(trip));
                return flight + ", " + hotel + ", " + car;
            } catch (StepFailedException e) {
                throw saga.compensate(e); // the car failed: cancel the hotel, then the flight
            }
        });
    }
    // end::saga[]

    private static String cancel(Providers providers, String confirmation) {
        providers.cancel(confirmation);
        return confirmation;
    }
}
