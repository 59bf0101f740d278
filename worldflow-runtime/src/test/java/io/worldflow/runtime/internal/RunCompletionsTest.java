package io.worldflow.runtime.internal;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class RunCompletionsTest {

    private static final long SHORT = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long LONG = TimeUnit.SECONDS.toNanos(5);

    private final RunCompletions completions = new RunCompletions();

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
}
