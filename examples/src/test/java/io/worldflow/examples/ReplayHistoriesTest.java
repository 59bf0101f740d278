package io.worldflow.examples;

import io.worldflow.NonDeterministicWorkflowException;
import io.worldflow.Workflow;
import io.worldflow.runtime.WorkflowReplayer;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Histories saved from earlier runs still replay with the code as it is now: the check to run before a deploy. */
class ReplayHistoriesTest {

    /** A replay runs no step: providers and a carrier that answer nothing prove it. */
    private final TripBooking.Providers providers = new TripBooking.Providers() {
        public String bookFlight(String trip) {
            throw new AssertionError("a replay books nothing");
        }

        public String bookHotel(String trip) {
            throw new AssertionError("a replay books nothing");
        }

        public String bookCar(String trip) {
            throw new AssertionError("a replay books nothing");
        }

        public void cancel(String confirmation) {
            throw new AssertionError("a replay cancels nothing");
        }
    };

    private final AwaitShipment.Carrier carrier = parcel -> {
        throw new AssertionError("a replay asks no carrier");
    };

    // tag::replay-ci[]
    @Test
    void savedHistoriesStillReplayWithTheCurrentCode() {
        WorkflowReplayer.replayAll(
                        List.of(TripBooking.workflow(providers), AwaitShipment.workflow(carrier)),
                        Path.of("src/test/resources/histories"))
                .assertNoDivergence(); // names every history the code no longer matches, and where
    }
    // end::replay-ci[]

    @Test
    void eachSavedHistoryEndsAsItsRunDid() {
        WorkflowReplayer.Report report = WorkflowReplayer.replayAll(
                List.of(TripBooking.workflow(providers), AwaitShipment.workflow(carrier)),
                Path.of("src/test/resources/histories"));

        assertThat(report.results()).hasSize(3);
        assertThat(report.results())
                .allSatisfy(r -> assertThat(r.outcome()).as(r.toString()).isEqualTo(WorkflowReplayer.Outcome.MATCHED));
    }

    @Test
    void aChangeThatReordersTheBookingsIsCaughtBeforeItShips() {
        Workflow<String, String> hotelFirst = Workflow.define("trip.book", String.class, (ctx, trip) -> {
            String hotel = ctx.step("hotel", () -> providers.bookHotel(trip));
            String flight = ctx.step("flight", () -> providers.bookFlight(trip));
            return flight + hotel;
        });

        assertThatThrownBy(() -> WorkflowReplayer.of(List.of(hotelFirst))
                        .replay(Path.of("src/test/resources/histories/trip-booked.json")))
                .isInstanceOf(NonDeterministicWorkflowException.class)
                .hasMessageContaining("is step 'flight' in the history")
                .hasMessageContaining("the code now asks for step 'hotel'");
    }
}
