package io.worldflow.dashboard;

import java.util.Objects;

/**
 * Who a dashboard request comes from: the name of its token, or the identity an {@link Authenticator} gave it, and its
 * role.
 */
public record Caller(String name, Role role) {

    /** Whom a read comes from where reads need no token ({@link DashboardSettings#publicReads}). */
    public static final Caller ANONYMOUS = new Caller("anonymous", Role.VIEWER);

    /** The longest name: the log records {@code dashboard:<name>} as who acted ({@link io.worldflow.Actors}). */
    public static final int MAX_NAME_LENGTH = 150;

    public Caller {
        Objects.requireNonNull(role, "role");
        checkName(name);
    }

    /** Refuses a name a caller may not have: blank, longer than {@value #MAX_NAME_LENGTH}, or with control characters. */
    static void checkName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank() || name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("a caller's name must be 1.." + MAX_NAME_LENGTH
                    + " characters, not blank, was " + name.length() + " characters");
        }
        for (int i = 0; i < name.length(); i++) {
            if (Character.isISOControl(name.charAt(i))) {
                throw new IllegalArgumentException(String.format(
                        "a caller's name may not hold control characters, has U+%04X at index %d",
                        (int) name.charAt(i), i));
            }
        }
    }
}
