package io.worldflow.runtime.internal;

import io.worldflow.ScheduleSpec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A schedule's fire times as Quartz's cron calendar gives them, daylight-saving changes included, and intervals. */
class FireTimesTest {

    private static final Instant CREATED = Instant.parse("2026-01-01T00:00:00Z");

    private static List<Instant> next(ScheduleSpec spec, String from, int n) {
        FireTimes times = new FireTimes(spec, CREATED);
        return times.upcoming(times.after(Instant.parse(from)), n);
    }

    private static List<Instant> at(String... instants) {
        return java.util.Arrays.stream(instants).map(Instant::parse).toList();
    }

    private static ScheduleSpec cron(String expression, String zone) {
        return ScheduleSpec.cron("s", expression, "wf", null).inZone(zone);
    }

    @Test
    void anHourlyCronInBerlinFiresTheRepeatedHourOnceWhenTheClocksGoBack() {
        // 2026-10-25: 03:00 CEST becomes 02:00 CET; Quartz fires 02:00 once, in CET
        assertThat(next(cron("0 0 * * * ?", "Europe/Berlin"), "2026-10-24T22:30:00Z", 4))
                .isEqualTo(at(
                        "2026-10-24T23:00:00Z", // 01:00 CEST
                        "2026-10-25T01:00:00Z", // 02:00 CET
                        "2026-10-25T02:00:00Z", // 03:00 CET
                        "2026-10-25T03:00:00Z"));
    }

    @Test
    void aDailyCronInBerlinAtATimeTheClocksSkipDoesNotFireThatDay() {
        // 2026-03-29: 02:00 CET becomes 03:00 CEST, so 02:30 does not exist that day
        assertThat(next(cron("0 30 2 * * ?", "Europe/Berlin"), "2026-03-27T12:00:00Z", 3))
                .isEqualTo(at("2026-03-28T01:30:00Z", "2026-03-30T00:30:00Z", "2026-03-31T00:30:00Z"));
    }

    @Test
    void aDailyCronInNewYorkAtAnHourThatHappensTwiceFiresOnce() {
        // 2026-11-01: 02:00 EDT becomes 01:00 EST, so 01:30 happens twice; Quartz fires the second, in EST
        assertThat(next(cron("0 30 1 * * ?", "America/New_York"), "2026-10-30T12:00:00Z", 3))
                .isEqualTo(at("2026-10-31T05:30:00Z", "2026-11-01T06:30:00Z", "2026-11-02T06:30:00Z"));
    }

    @Test
    void aDailyCronInNewYorkAtATimeTheClocksSkipDoesNotFireThatDay() {
        // 2026-03-08: 02:00 EST becomes 03:00 EDT
        assertThat(next(cron("0 30 2 * * ?", "America/New_York"), "2026-03-06T12:00:00Z", 3))
                .isEqualTo(at("2026-03-07T07:30:00Z", "2026-03-09T06:30:00Z", "2026-03-10T06:30:00Z"));
    }

    @Test
    void theSameCronInAnotherZoneFiresAtThatZonesTimes() {
        assertThat(next(cron("0 0 2 * * ?", "UTC"), "2026-06-01T00:00:00Z", 1)).isEqualTo(at("2026-06-01T02:00:00Z"));
        assertThat(next(cron("0 0 2 * * ?", "Europe/Berlin"), "2026-06-01T00:00:00Z", 1))
                .isEqualTo(at("2026-06-02T00:00:00Z"));
    }

    @Test
    void startAndEndBoundTheFireTimes() {
        ScheduleSpec spec = cron("0 0 * * * ?", "UTC")
                .startingAt(Instant.parse("2026-06-01T10:00:00Z"))
                .endingAt(Instant.parse("2026-06-01T12:00:00Z"));
        FireTimes times = new FireTimes(spec, CREATED);

        assertThat(times.after(Instant.parse("2026-05-01T00:00:00Z"))).isEqualTo(Instant.parse("2026-06-01T10:00:00Z"));
        assertThat(times.between(Instant.parse("2026-05-01T00:00:00Z"), Instant.parse("2027-01-01T00:00:00Z"), 10))
                .isEqualTo(at("2026-06-01T10:00:00Z", "2026-06-01T11:00:00Z", "2026-06-01T12:00:00Z"));
        assertThat(times.after(Instant.parse("2026-06-01T12:00:00Z"))).isNull();
    }

    @Test
    void anIntervalCountsFromItsStartOrFromItsCreation() {
        FireTimes fromCreation = new FireTimes(ScheduleSpec.every("s", Duration.ofMinutes(15), "wf", null), CREATED);
        assertThat(fromCreation.after(CREATED.minusSeconds(1)))
                .as("its creation is no fire time: the first is an interval later, as the schedule fires")
                .isEqualTo(Instant.parse("2026-01-01T00:15:00Z"));
        assertThat(fromCreation.after(CREATED)).isEqualTo(Instant.parse("2026-01-01T00:15:00Z"));
        assertThat(fromCreation.after(Instant.parse("2026-01-01T01:07:00Z")))
                .isEqualTo(Instant.parse("2026-01-01T01:15:00Z"));

        FireTimes fromStart = new FireTimes(
                ScheduleSpec.every("s", Duration.ofHours(1), "wf", null)
                        .startingAt(Instant.parse("2026-02-01T00:30:00Z")),
                CREATED);
        assertThat(fromStart.between(Instant.parse("2026-01-15T00:00:00Z"), Instant.parse("2026-02-01T03:00:00Z"), 10))
                .isEqualTo(at("2026-02-01T00:30:00Z", "2026-02-01T01:30:00Z", "2026-02-01T02:30:00Z"));
    }

    @Test
    void anIntervalWithoutAStartCountsFromTheWholeSecondItWasCreatedIn() {
        Instant created = Instant.parse("2026-11-29T06:10:39.016517816Z");
        FireTimes times = new FireTimes(ScheduleSpec.every("every5", Duration.ofSeconds(5), "wf", null), created);

        assertThat(times.after(created))
                .as("whole seconds, as the run ids they name")
                .isEqualTo(Instant.parse("2026-11-29T06:10:44Z"));
        assertThat(times.between(created, Instant.parse("2026-11-29T06:10:59.5Z"), 10))
                .isEqualTo(at(
                        "2026-11-29T06:10:44Z",
                        "2026-11-29T06:10:49Z",
                        "2026-11-29T06:10:54Z",
                        "2026-11-29T06:10:59Z"));
        FireTimes fromStart = new FireTimes(
                ScheduleSpec.every("every5", Duration.ofSeconds(5), "wf", null)
                        .startingAt(Instant.parse("2026-11-29T07:00:00.25Z")),
                created);
        assertThat(fromStart.after(created))
                .as("a start given is kept to the nanosecond")
                .isEqualTo(Instant.parse("2026-11-29T07:00:00.25Z"));
    }

    @Test
    void anExpressionQuartzDoesNotReadIsRefusedNamingIt() {
        assertThatThrownBy(() -> new FireTimes(cron("0 0 25 * * ?", "UTC"), CREATED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("schedule 's'")
                .hasMessageContaining("cron expression '0 0 25 * * ?'")
                .hasMessageContaining("Hour values must be between 0 and 23");
        assertThatThrownBy(() -> new FireTimes(cron("0 0 2 * *", "UTC"), CREATED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'0 0 2 * *'");
    }
}
