package io.worldflow.world.postgres;

import io.worldflow.Payload;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.StepScheduled;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.Lease;
import io.worldflow.spi.TaskQueue;
import io.worldflow.spi.World;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * LISTEN/NOTIFY between processes: what one world makes due, and which runs it finishes, another world's
 * subscribers hear.
 */
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

            writer.eventLog()
                    .create(new io.worldflow.spi.NewRun(
                            "later", "wf", io.worldflow.Payload.NULL, clock.instant(), later, null, QUEUE, 0));
            assertThat(told.poll(10, TimeUnit.SECONDS)).isEqualTo(later);

            Lease lease = writer.taskQueue()
                    .lease("w", Set.of(QUEUE), 1, Duration.ofMinutes(1))
                    .getFirst();
            writer.taskQueue().release(lease);
            assertThat(told.poll(10, TimeUnit.SECONDS)).isEqualTo(clock.instant());

            writer.signals().send("later", "go", io.worldflow.Payload.NULL);
            assertThat(told.poll(10, TimeUnit.SECONDS)).isEqualTo(clock.instant());
        } finally {
            subscription.close();
        }
    }

    @Test
    void theListenConnectionHandsEveryNoticeOverThroughItsOwnSockets() throws Exception {
        assertThat(Connector.listenSocketsVisible())
                .as("the driver loads the LISTEN sockets' factory by name")
                .isTrue();
        Connector connector = new Connector(PgSettings.from(config(freshSchema())));
        try (Connection listen = connector.connectForListening(Connector.MAX_CONNECT_SECONDS);
                Connection other = TestPostgres.shared().connect();
                Statement ls = listen.createStatement();
                Statement os = other.createStatement()) {
            ls.execute("LISTEN wf_push_test");
            PGConnection pg = listen.unwrap(PGConnection.class);
            os.execute("NOTIFY wf_push_test, 'one'");
            assertThat(notices(pg, 1)).containsExactly("one");

            os.execute("NOTIFY wf_push_test, 'two'");
            os.execute("NOTIFY wf_push_test, 'three'");
            assertThat(notices(pg, 2)).containsExactly("two", "three");
            assertThat(pg.getNotifications(50)).as("nothing more").isNullOrEmpty();
            ls.execute("SELECT 1"); // the connection still serves statements
        }
    }

    /** The payloads of the next {@code n} notices, waiting up to 10 s. */
    private static List<String> notices(PGConnection pg, int n) throws Exception {
        List<String> out = new ArrayList<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (out.size() < n && System.nanoTime() < end) {
            PGNotification[] got = pg.getNotifications(500);
            if (got != null) {
                for (PGNotification g : got) {
                    out.add(g.getParameter());
                }
            }
        }
        return out;
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

            TestPostgres.shared()
                    .execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity" + " WHERE query LIKE 'LISTEN \""
                            + schema + ".%'");

            assertThat(told.poll(15, TimeUnit.SECONDS))
                    .as("due now, after reconnecting")
                    .isEqualTo(clock.instant());
            assertThat(listener.isListening()).isTrue();
            Instant later = clock.instant().plusSeconds(42);
            writer.eventLog()
                    .create(new io.worldflow.spi.NewRun(
                            "r1", "wf", io.worldflow.Payload.NULL, clock.instant(), later, null, QUEUE, 0));
            assertThat(told.poll(10, TimeUnit.SECONDS)).isEqualTo(later);
        } finally {
            subscription.close();
        }
    }

    @Test
    void aSubscriberHearsWhichRunsAnotherProcessFinishesAndNoOthers() throws Exception {
        String schema = freshSchema();
        World listener = open(config(schema));
        World writer = open(config(schema));
        BlockingQueue<String> ended = new LinkedBlockingQueue<>();
        TaskQueue.Subscription subscription = listener.runQueries().subscribeEnded(ended::add);
        try {
            for (String id : List.of("one", "two", "three", "four")) {
                writer.eventLog().create(newRun(id));
            }

            // one statement: a single finishing append
            assertThat(writer.eventLog()
                            .append(List.of(finish("one", 1)))
                            .getFirst()
                            .appended())
                    .isTrue();
            assertThat(ended.poll(10, TimeUnit.SECONDS)).isEqualTo("one");

            // a transaction of several statements (a run twice in the batch), finishing two runs
            List<AppendResult> results = writer.eventLog()
                    .append(List.of(
                            new Append("two", 1, List.of(scheduled("two", 1)), RunStatus.RUNNING),
                            finish("two", 2),
                            finish("three", 1)));
            assertThat(results).allMatch(AppendResult::appended);
            assertThat(List.of(ended.poll(10, TimeUnit.SECONDS), ended.poll(10, TimeUnit.SECONDS)))
                    .containsExactlyInAnyOrder("two", "three");

            // neither a refused finishing append nor a run that goes on is named
            assertThat(writer.eventLog()
                            .append(List.of(finish("four", 5)))
                            .getFirst()
                            .appended())
                    .isFalse();
            writer.eventLog().append(List.of(new Append("four", 1, List.of(scheduled("four", 1)), RunStatus.RUNNING)));
            assertThat(ended.poll(500, TimeUnit.MILLISECONDS)).isNull();
        } finally {
            subscription.close();
        }
        writer.eventLog().append(List.of(finish("four", 2)));
        assertThat(ended.poll(500, TimeUnit.MILLISECONDS))
                .as("after closing the subscription")
                .isNull();
    }

    @Test
    void aBatchFinishingMoreRunsThanANoticeCanNameSaysSomeEnded() throws Exception {
        String schema = freshSchema();
        World listener = open(config(schema));
        World writer = open(config(schema));
        BlockingQueue<String> ended = new LinkedBlockingQueue<>();
        TaskQueue.Subscription subscription = listener.runQueries().subscribeEnded(ended::add);
        try {
            List<Append> finishing = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                String id = "a-rather-long-run-identifier-of-forty-" + i;
                writer.eventLog().create(newRun(id));
                finishing.add(finish(id, 1));
            }

            assertThat(writer.eventLog().append(finishing)).allMatch(AppendResult::appended);

            assertThat(ended.poll(10, TimeUnit.SECONDS)).isEqualTo("*");
            assertThat(ended.poll(300, TimeUnit.MILLISECONDS)).isNull();
        } finally {
            subscription.close();
        }
    }

    @Test
    void afterReconnectingTheListenerSaysSomeRunsEnded() throws Exception {
        String schema = freshSchema();
        World listener = open(config(schema));
        World writer = open(config(schema));
        BlockingQueue<String> ended = new LinkedBlockingQueue<>();
        TaskQueue.Subscription subscription = listener.runQueries().subscribeEnded(ended::add);
        try {
            TestPostgres.shared()
                    .execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity" + " WHERE query LIKE 'LISTEN \""
                            + schema + ".%'");

            assertThat(ended.poll(15, TimeUnit.SECONDS))
                    .as("notices were missed meanwhile")
                    .isEqualTo("*");
            writer.eventLog().create(newRun("r1"));
            writer.eventLog().append(List.of(finish("r1", 1)));
            assertThat(ended.poll(10, TimeUnit.SECONDS)).isEqualTo("r1");
        } finally {
            subscription.close();
        }
    }

    private Append finish(String runId, long seq) {
        List<Event> events =
                List.of(new WorkflowCompleted(runId, seq, clock.instant(), new Payload("1", "java.lang.Integer")));
        return new Append(runId, seq, events, RunStatus.COMPLETED);
    }

    private StepScheduled scheduled(String runId, long seq) {
        return new StepScheduled(runId, seq, clock.instant(), "s" + seq, "s");
    }
}
