package io.worldflow;

/** No schedule has this id. */
public class ScheduleNotFoundException extends WorldflowException {

    private final String scheduleId;

    public ScheduleNotFoundException(String scheduleId) {
        super("schedule '" + scheduleId + "' does not exist");
        this.scheduleId = scheduleId;
    }

    public String scheduleId() {
        return scheduleId;
    }
}
