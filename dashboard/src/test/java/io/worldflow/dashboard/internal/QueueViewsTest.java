package io.worldflow.dashboard.internal;

import io.worldflow.QueueInfo;
import io.worldflow.QueueSpec;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one part of a queue's view that a test through the server cannot reach cheaply: the world counts waiting runs
 * only up to {@link QueueInfo#COUNT_LIMIT}, and the view says when the count stopped there.
 */
class QueueViewsTest {

    private static QueueInfo waiting(int n) {
        return new QueueInfo(QueueSpec.named("ledger").withConcurrency(1), n, 1, n, Instant.EPOCH);
    }

    @Test
    void aWaitingCountAtTheCapSaysItIsCapped() {
        assertThat(QueueViews.view(waiting(QueueInfo.COUNT_LIMIT)))
                .containsEntry("waiting", QueueInfo.COUNT_LIMIT)
                .containsEntry("waitingCapped", true);
        assertThat(QueueViews.view(waiting(QueueInfo.COUNT_LIMIT - 1))).containsEntry("waitingCapped", false);
        assertThat(QueueViews.view(waiting(0))).containsEntry("waitingCapped", false);
    }
}
