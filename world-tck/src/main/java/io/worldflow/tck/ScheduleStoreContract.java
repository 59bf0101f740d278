package io.worldflow.tck;

import io.worldflow.spi.ScheduleStore;
import io.worldflow.spi.StoredSchedule;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Schedules as a world keeps them: versioned records written by compare and set, listed by id, found by when a worker
 * must look at them next, kept across a reopen.
 */
public abstract class ScheduleStoreContract extends WorldContractSupport {

    protected ScheduleStoreContract(WorldConformanceKit kit) {
        super(kit);
    }

    private ScheduleStore store() {
        return world.schedules();
    }

    private StoredSchedule schedule(String id, Instant wakeAt) {
        return new StoredSchedule(id, "{\"body\":\"" + id + "\",\"text\":\"é ✓ \\\"quoted\\\"\"}", wakeAt, 1, now());
    }

    @Test
    void aCreatedScheduleReadsBackAsWritten() {
        StoredSchedule s = schedule("nightly", now().plus(Duration.ofHours(2)));

        assertThat(store().create(s)).isTrue();

        assertThat(store().get("nightly")).contains(s);
        assertThat(store().get("other")).isEmpty();
    }

    @Test
    void creatingAnIdThatExistsChangesNothing() {
        StoredSchedule first = schedule("nightly", now());
        store().create(first);

        StoredSchedule second = new StoredSchedule("nightly", "{\"other\":true}", null, 1, now().plus(MS));
        assertThat(store().create(second)).isFalse();

        assertThat(store().get("nightly")).contains(first);
    }

    @Test
    void aCreateOfAVersionOtherThanOneIsRefusedAndStoresNothing() {
        StoredSchedule v2 = new StoredSchedule("nightly", "{}", now(), 2, now());

        assertThatThrownBy(() -> store().create(v2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("version");
        assertThat(store().get("nightly")).isEmpty();
    }

    @Test
    void replaceComparesAndSetsTheVersion() {
        StoredSchedule v1 = schedule("nightly", now());
        store().create(v1);
        clock.advance(Duration.ofSeconds(1));
        StoredSchedule v2 = v1.next("{\"fired\":1}", now().plus(Duration.ofDays(1)), now());

        assertThat(store().replace(v2)).isTrue();
        assertThat(store().get("nightly")).contains(v2);

        StoredSchedule stale = v1.next("{\"fired\":\"again\"}", now(), now());
        assertThat(store().replace(stale))
                .as("a replace of a version already replaced")
                .isFalse();
        StoredSchedule ahead = v2.next("x", null, now()).next("y", null, now());
        assertThat(store().replace(ahead)).as("a replace that skips a version").isFalse();
        assertThat(store().get("nightly")).contains(v2);
        assertThat(store().replace(schedule("missing", now()).next("{}", now(), now())))
                .as("a replace of a schedule that does not exist")
                .isFalse();
        assertThat(store().get("missing")).isEmpty();
    }

    @Test
    void replaceAllComparesAndSetsEachScheduleOnItsOwn() {
        StoredSchedule a = schedule("a", now());
        StoredSchedule b = schedule("b", now());
        store().create(a);
        store().create(b);
        StoredSchedule bMoved = b.next("{\"moved\":1}", now(), now());
        store().replace(bMoved);
        Instant later = now().plus(Duration.ofMinutes(1));

        List<Boolean> replaced = store().replaceAll(List.of(
                a.next("{\"fired\":1}", later, now()),
                b.next("{\"stale\":1}", later, now()),
                schedule("missing", now()).next("{}", later, now())));

        assertThat(replaced).containsExactly(true, false, false);
        assertThat(store().get("a").orElseThrow().body()).isEqualTo("{\"fired\":1}");
        assertThat(store().get("a").orElseThrow().wakeAt()).isEqualTo(later);
        assertThat(store().get("b")).contains(bMoved);
        assertThat(store().get("missing")).isEmpty();
        assertThat(store().replaceAll(List.of())).isEmpty();
    }

    @Test
    void ofConcurrentReplacesOfOneVersionExactlyOneWins() throws Exception {
        StoredSchedule v1 = schedule("nightly", now());
        store().create(v1);
        int writers = 6;
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<Boolean>> wins = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                StoredSchedule mine = v1.next("{\"writer\":" + w + "}", now(), now());
                wins.add(pool.submit(() -> {
                    go.await();
                    return store().replace(mine);
                }));
            }
            go.countDown();
            int won = 0;
            for (Future<Boolean> f : wins) {
                won += f.get() ? 1 : 0;
            }
            assertThat(won).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
        assertThat(store().get("nightly").orElseThrow().version()).isEqualTo(2);
    }

    @Test
    void deleteRemovesTheScheduleOnce() {
        store().create(schedule("nightly", now()));

        assertThat(store().delete("nightly")).isTrue();
        assertThat(store().delete("nightly")).isFalse();
        assertThat(store().get("nightly")).isEmpty();
        assertThat(store().due(now(), 10)).isEmpty();
        assertThat(store().create(schedule("nightly", now())))
                .as("the id is free again")
                .isTrue();
    }

    @Test
    void listPagesInIdOrder() {
        for (String id : List.of("c", "a", "e", "b", "d")) {
            store().create(schedule(id, null));
        }

        assertThat(store().list(null, 2)).extracting(StoredSchedule::id).containsExactly("a", "b");
        assertThat(store().list("b", 2)).extracting(StoredSchedule::id).containsExactly("c", "d");
        assertThat(store().list("d", 2)).extracting(StoredSchedule::id).containsExactly("e");
        assertThat(store().list("e", 2)).isEmpty();
        assertThatThrownBy(() -> store().list(null, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit");
    }

    @Test
    void dueFindsTheSchedulesToLookAtEarliestFirstAndNeverThoseWithoutAWakeTime() {
        Instant t = now();
        store().create(schedule("later", t.plus(Duration.ofMinutes(5))));
        store().create(schedule("b-now", t));
        store().create(schedule("a-now", t));
        store().create(schedule("earlier", t.minus(Duration.ofHours(1))));
        store().create(schedule("paused", null));

        assertThat(store().due(t, 10)).extracting(StoredSchedule::id).containsExactly("earlier", "a-now", "b-now");
        assertThat(store().due(t, 2)).extracting(StoredSchedule::id).containsExactly("earlier", "a-now");
        assertThat(store().due(t.plus(Duration.ofMinutes(5)), 10))
                .extracting(StoredSchedule::id)
                .containsExactly("earlier", "a-now", "b-now", "later");
        assertThatThrownBy(() -> store().due(t, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit");
    }

    @Test
    void aReplaceMovesTheScheduleInTheDueOrder() {
        Instant t = now();
        StoredSchedule s = schedule("nightly", t);
        store().create(s);
        store().create(schedule("hourly", t.plus(Duration.ofMinutes(30))));

        store().replace(s.next("{}", t.plus(Duration.ofHours(1)), t));
        assertThat(store().due(t.plus(Duration.ofHours(1)), 10))
                .extracting(StoredSchedule::id)
                .containsExactly("hourly", "nightly");

        store().replace(store().get("nightly").orElseThrow().next("{\"paused\":true}", null, t));
        assertThat(store().due(t.plus(Duration.ofDays(1)), 10))
                .extracting(StoredSchedule::id)
                .containsExactly("hourly");
    }

    @Test
    void schedulesAreKeptAcrossAReopen() {
        StoredSchedule s = schedule("nightly", now().plus(Duration.ofMinutes(1)));
        store().create(s);

        reopen();

        assertThat(store().get("nightly")).contains(s);
        assertThat(store().due(now().plus(Duration.ofMinutes(1)), 10)).containsExactly(s);
    }

    @Test
    void aLargeBodyIsStoredWhole() {
        String big = "{\"input\":\"" + "x".repeat(100_000) + "\"}";
        StoredSchedule s = new StoredSchedule("big", big, now(), 1, now());

        store().create(s);

        assertThat(store().get("big").orElseThrow().body()).isEqualTo(big);
    }
}
