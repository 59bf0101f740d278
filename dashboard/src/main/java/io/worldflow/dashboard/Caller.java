package io.worldflow.dashboard;

import java.util.Objects;

/**
 * Who a dashboard request comes from: the name of its token, or the identity an {@link Authenticator} gave it, and its
 * role.
 */
public record Caller(String name, Role role) {

    /** Whom a read comes from where reads need no token ({@link DashboardSettings#publicReads}). */
    public static final Caller ANONYMOUS = new Caller("anonymous", Role.VIEWER);

    public Caller {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(role, "role");
        if (name.isBlank() || name.length() > 200) {
            throw new IllegalArgumentException("a caller's name must be 1..200 characters, not blank");
        }
    }
}
