package io.worldflow.world.postgres;

import io.worldflow.spi.Lease;
import io.worldflow.spi.TaskQueue;
import io.worldflow.spi.World;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** LISTEN/NOTIFY between processes: what one world makes due, another world's subscribers hear. */
class PushTest extends PgTestSupport {

    @Test
    void aSubscriberHearsWhatAnotherProcessMakesDue() throws Exception {
        String schema = freshSchema();
        World listener = open(config(schema));
        World writer = open(config(schema));
        BlockingQueue<Instant> told = new LinkedBlockingQueue<>();
        TaskQueue.Subscription subscription = listener.taskQueue().subscribe(told::add);
        try {
            Instant later = clock.instant().plus(Duration.ofMinutes(5));
            writer.eventLog().create(newRun("now"));
            assertThat(told.poll(10, TimeUnit.SECONDS)).isEqualTo(clock.instant());

            writer.eventLog().create(new io.worldflow.spi.NewRun("later", "wf", io.worldflow.Payload.NULL,
                    clock.instant(), later, null, QUEUE, 0));
            assertThat(told.poll(10, TimeUnit.SECONDS)).isEqualTo(later);

            Lease lease = writer.taskQueue().lease("w", Set.of(QUEUE), 1, Duration.ofMinutes(1)).getFirst();
            writer.taskQueue().release(lease);
            assertThat(told.poll(10, TimeUnit.SECONDS)).isEqualTo(clock.instant());

            writer.signals().send("later", "go", io.worldflow.Payload.NULL);
            assertThat(told.poll(10, TimeUnit.SECONDS)).isEqualTo(clock.instant());
        } finally {
            subscription.close();
        }
    }

    @Test
    void worldsInOtherSchemasAreNotWoken() throws Exception {
        World listener = open(config(freshSchema()));
        World elsewhere = open(config(freshSchema()));
        BlockingQueue<Instant> told = new LinkedBlockingQueue<>();
        TaskQueue.Subscription subscription = listener.taskQueue().subscribe(told::add);
        try {
            elsewhere.eventLog().create(newRun("r1"));

            assertThat(told.poll(500, TimeUnit.MILLISECONDS)).isNull();
        } finally {
            subscription.close();
        }
    }

    @Test
    void theListenerReconnectsAfterItsConnectionIsKilledAndReportsDueNow() throws Exception {
        String schema = freshSchema();
        PostgresWorld listener = (PostgresWorld) open(config(schema));
        World writer = open(config(schema));
        BlockingQueue<Instant> told = new LinkedBlockingQueue<>();
        TaskQueue.Subscription subscription = listener.taskQueue().subscribe(told::add);
        try {
            assertThat(listener.isListening()).isTrue();

            TestPostgres.shared().execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    + " WHERE query LIKE 'LISTEN \"" + schema + ".%'");

            assertThat(told.poll(15, TimeUnit.SECONDS)).as("due now, after reconnecting").isEqualTo(clock.instant());
            assertThat(listener.isListening()).isTrue();
            Instant later = clock.instant().plusSeconds(42);
            writer.eventLog().create(new io.worldflow.spi.NewRun("r1", "wf", io.worldflow.Payload.NULL,
                    clock.instant(), later, null, QUEUE, 0));
            assertThat(told.poll(10, TimeUnit.SECONDS)).isEqualTo(later);
        } finally {
            subscription.close();
        }
    }
}
