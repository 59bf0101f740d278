package io.worldflow;

/** A schedule of this id exists already: {@code create} changes nothing then ({@code update} changes it). */
public class ScheduleExistsException extends WorldflowException {

    private final String scheduleId;

    public ScheduleExistsException(String scheduleId) {
        super("schedule '" + scheduleId + "' exists already; update it, or delete it first");
        this.scheduleId = scheduleId;
    }

    public String scheduleId() {
        return scheduleId;
    }
}
