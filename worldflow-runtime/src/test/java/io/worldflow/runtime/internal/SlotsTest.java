package io.worldflow.runtime.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SlotsTest {

    private final Slots slots = new Slots(4, 64);

    @Test
    void noRunStartsHereBeforeALeaseHasFoundTheQueueDrained() {
        assertThat(slots.mayStartHere(0))
                .as("a worker that just started may have a backlog")
                .isFalse();

        slots.beginLeasing(0);
        slots.leased(4, 1);

        assertThat(slots.mayStartHere(1)).isTrue();
    }

    @Test
    void whileDueTurnsWaitFreeSlotsGoToTheLoop() {
        slots.beginLeasing(0);
        slots.leased(4, 0);
        assertThat(slots.mayStartHere(0)).isTrue();

        slots.beginLeasing(0);
        slots.leased(4, 4); // as many as asked: more may be due

        assertThat(slots.mayStartHere(2))
                .as("two slots free, but turns may be waiting for them")
                .isFalse();
        slots.beginLeasing(2);
        slots.leased(2, 1);
        assertThat(slots.mayStartHere(3)).isTrue();
    }

    @Test
    void theSlotsALeaseInProgressMayFillAreTaken() {
        slots.beginLeasing(0);
        slots.leased(4, 0);

        assertThat(slots.beginLeasing(1)).isEqualTo(3);
        assertThat(slots.mayStartHere(1)).as("1 held and 3 being leased for").isFalse();
        slots.leased(3, 0);
        assertThat(slots.mayStartHere(1)).isTrue();
        assertThat(slots.mayStartHere(4)).as("all held").isFalse();
    }

    @Test
    void aFailedLeaseFreesItsSlotsAndLeavesTheBacklogAsItWas() {
        slots.beginLeasing(0);
        slots.leased(4, 0);
        slots.beginLeasing(0);

        slots.leased(4, -1);

        assertThat(slots.mayStartHere(0)).isTrue();
    }

    @Test
    void aLeaseAsksForNoMoreThanTheFreeSlotsAndTheBatch() {
        Slots many = new Slots(100, 64);
        assertThat(many.beginLeasing(0)).isEqualTo(64);
        many.leased(64, 0);
        assertThat(many.beginLeasing(90)).isEqualTo(10);
        many.leased(10, 0);
        assertThat(many.beginLeasing(100)).isZero();
    }
}
