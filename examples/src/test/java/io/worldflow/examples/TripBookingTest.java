package io.worldflow.examples;

import io.worldflow.NonRetryableException;
import io.worldflow.RunHandle;
import io.worldflow.StartOptions;
import io.worldflow.WorkflowFailedException;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(60)
class TripBookingTest {

    @TempDir
    Path tmp;

    private final List<String> cancelled = new CopyOnWriteArrayList<>();

    private TripBooking.Providers providers(boolean carsLeft) {
        return new TripBooking.Providers() {
            @Override
            public String bookFlight(String trip) {
                return "flight " + trip;
            }

            @Override
            public String bookHotel(String trip) {
                return "hotel " + trip;
            }

            @Override
            public String bookCar(String trip) {
                if (!carsLeft) {
                    throw new NonRetryableException("no cars left");
                }
                return "car " + trip;
            }

            @Override
            public void cancel(String confirmation) {
                cancelled.add(confirmation);
            }
        };
    }

    @Test
    void whenTheCarCannotBeBookedTheHotelAndThenTheFlightAreCancelled() {
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", tmp + "/trip.db")
                .register(TripBooking.workflow(providers(false)))
                .build()) {
            wf.startWorker();
            RunHandle<Object> run = wf.start("trip.book", "t-1", StartOptions.defaults());

            assertThatThrownBy(() -> run.result(Duration.ofSeconds(10)))
                    .isInstanceOf(WorkflowFailedException.class)
                    .hasMessageContaining("no cars left");
            assertThat(cancelled).containsExactly("hotel t-1", "flight t-1");
        }
    }

    @Test
    void aTripThatCanBeBookedWhollyCancelsNothing() {
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", tmp + "/ok.db")
                .register(TripBooking.workflow(providers(true)))
                .build()) {
            wf.startWorker();
            RunHandle<Object> run = wf.start("trip.book", "t-2", StartOptions.defaults());

            assertThat(run.result(Duration.ofSeconds(10))).isEqualTo("flight t-2, hotel t-2, car t-2");
            assertThat(cancelled).isEmpty();
        }
    }
}
