package io.worldflow.dashboard;

import io.worldflow.ConfigurationException;

import java.util.Locale;

/**
 * What a dashboard caller may do. Each role may do what the roles before it may.
 *
 * <ul>
 *   <li>{@link #VIEWER}: read runs, timelines, schedules and queues, and follow live updates;
 *   <li>{@link #OPERATOR}: also start, signal, cancel, terminate and retry runs, and make signal URLs;
 *   <li>{@link #ADMIN}: also pause, resume and trigger schedules and set queues' limits.
 * </ul>
 */
public enum Role {
    VIEWER,
    OPERATOR,
    ADMIN;

    /** Whether this role may do what {@code needed} may. */
    public boolean allows(Role needed) {
        return compareTo(needed) >= 0;
    }

    /** Its name as configuration and the API spell it: {@code viewer}, {@code operator}, {@code admin}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The role named {@code text} (any case).
     *
     * @throws ConfigurationException naming {@code key} when there is no such role
     */
    static Role parse(String text, String key) {
        for (Role r : values()) {
            if (r.label().equalsIgnoreCase(text.strip())) {
                return r;
            }
        }
        throw new ConfigurationException(
                key + ": '" + text + "' is not a role; the roles are viewer, operator and admin");
    }
}
