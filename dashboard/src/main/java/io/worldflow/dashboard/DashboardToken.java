package io.worldflow.dashboard;

import io.worldflow.ConfigurationException;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A named token and the role it gives whoever presents it ({@value DashboardSettings#TOKENS}). Its name is what the
 * dashboard logs and shows as the caller; the token itself is never shown.
 */
public record DashboardToken(String name, Role role, String token) {

    static final int MIN_LENGTH = 16;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@-]{1,64}");

    public DashboardToken {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(token, "token");
        if (!NAME.matcher(name).matches()) {
            throw new ConfigurationException(DashboardSettings.TOKENS + ": the token name '" + name
                    + "' must be 1..64 letters, digits or . _ @ -");
        }
        if (token.length() < MIN_LENGTH || token.chars().anyMatch(c -> c <= ' ' || c > '~' || c == ',')) {
            throw new ConfigurationException(DashboardSettings.TOKENS + ": the token of '" + name
                    + "' must be at least " + MIN_LENGTH + " printable characters without spaces or commas");
        }
    }

    @Override
    public String toString() {
        return "DashboardToken[name=" + name + ", role=" + role.label() + ", token=****]";
    }
}
