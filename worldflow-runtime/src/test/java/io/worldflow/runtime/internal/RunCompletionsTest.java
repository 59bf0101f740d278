package io.worldflow.runtime.internal;

import io.worldflow.RunInfo;
import io.worldflow.RunPage;
import io.worldflow.RunQuery;
import io.worldflow.RunStatus;
import io.worldflow.spi.RunQueries;
import io.worldflow.spi.TaskQueue;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

class RunCompletionsTest {

    private static final long SHORT = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long LONG = TimeUnit.SECONDS.toNanos(5);

    private final EndedQueries world = new EndedQueries();
    private final RunCompletions completions = new RunCompletions(world);

    @Test
    void aWatcherIsToldWhenItsRunFinishes() throws Exception {
        completions.watch("r1");
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return completions.await("r1", LONG);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        completions.finished("r1");

        assertThat(waiting.get(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aNoticeGivenBeforeTheWaitIsKeptWhileWatched() throws InterruptedException {
        completions.watch("r1");
        completions.finished("r1");

        assertThat(completions.await("r1", SHORT)).isTrue();
    }

    @Test
    void anUnwatchedRunsNoticeIsDropped() throws InterruptedException {
        completions.finished("r1");
        completions.watch("r1");

        assertThat(completions.await("r1", SHORT)).isFalse();
    }

    @Test
    void anotherRunsNoticeDoesNotWakeTheWaiter() throws InterruptedException {
        completions.watch("r1");
        completions.watch("r2");
        completions.finished("r2");

        assertThat(completions.await("r1", SHORT)).isFalse();
    }

    @Test
    void theNoticeStaysUntilTheLastWatcherLeaves() throws InterruptedException {
        completions.watch("r1");
        completions.watch("r1");
        completions.finished("r1");

        completions.unwatch("r1");
        assertThat(completions.await("r1", SHORT)).isTrue();

        completions.unwatch("r1");
        completions.watch("r1");
        assertThat(completions.await("r1", SHORT)).isFalse();
    }

    @Test
    void theWorldIsSubscribedToOnlyOnceAWaiterWatchesAndUntilClosed() throws InterruptedException {
        assertThat(world.listeners).isEmpty();

        completions.watch("r1");
        completions.watch("r2");
        assertThat(world.listeners).hasSize(1);

        world.listeners.getFirst().accept("r1");
        assertThat(completions.await("r1", SHORT)).isTrue();
        assertThat(completions.await("r2", SHORT)).isFalse();

        completions.close();
        assertThat(world.listeners).isEmpty();
        completions.watch("r3");
        assertThat(world.listeners).isEmpty();
    }

    @Test
    void aNoticeNamingNoRunWakesEveryWaiterToLookAgain() throws Exception {
        completions.watch("r1");
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return completions.await("r1", LONG);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(50);

        world.listeners.getFirst().accept("*");

        assertThat(waiting.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(completions.await("r1", SHORT))
                .as("no run was named: the next wait waits again")
                .isFalse();
    }

    /** A world whose only ability is to push end notices. */
    private static final class EndedQueries implements RunQueries {
        final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();

        @Override
        public TaskQueue.Subscription subscribeEnded(Consumer<String> ended) {
            listeners.add(ended);
            return () -> listeners.remove(ended);
        }

        @Override
        public Optional<RunInfo> get(String runId) {
            return Optional.empty();
        }

        @Override
        public RunPage list(RunQuery query) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Map<RunStatus, Long> countByStatus(RunQuery query) {
            throw new UnsupportedOperationException();
        }
    }
}
