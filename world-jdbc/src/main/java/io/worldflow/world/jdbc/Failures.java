package io.worldflow.world.jdbc;

/**
 * How a SQL world's error messages begin, so that every one names the world, what was being done and to which
 * run the same way: {@code local world: append of run 'order-42' failed on /data/worldflow.db}. What follows (a
 * hint, the driver's message) and which failures are transient are the world's to say.
 */
public final class Failures {

    private Failures() {}

    /** A run as the subject of an operation: {@code run 'order-42'}. */
    public static String run(String runId) {
        return "run '" + runId + "'";
    }

    /**
     * {@code <world> world: <operation>}, followed by {@code of <subject>} when there is a subject.
     *
     * @param subject the run concerned ({@link #run}), or null
     */
    public static String operation(String world, String operation, String subject) {
        return world + " world: " + operation + (subject == null ? "" : " of " + subject);
    }

    /** The {@linkplain #operation operation} followed by {@code failed on <place>}. */
    public static String failed(String world, String operation, String subject, String place) {
        return operation(world, operation, subject) + " failed on " + place;
    }
}
