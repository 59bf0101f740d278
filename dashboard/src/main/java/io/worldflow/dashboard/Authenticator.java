package io.worldflow.dashboard;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The application's own authentication of dashboard requests, asked when a request presents no dashboard token: for
 * example the user a trusted proxy in front of the dashboard put in a header. A request it does not recognize
 * (empty) is treated as one without credentials: refused, or let read where reads are public.
 */
@FunctionalInterface
public interface Authenticator {

    /**
     * @param header a request header's value by name (any case), or null when the request has none
     * @return who the request comes from, or empty
     */
    Optional<Caller> authenticate(UnaryOperator<String> header);

    /**
     * Takes the caller's name from {@code headerName} and gives it the role {@code roles} chooses for that name (null:
     * not let in). Only for a dashboard reached through a proxy that authenticates users and sets that header itself,
     * removing any a client sent: whoever reaches the dashboard directly could set it. A name that cannot be a
     * caller's (too long, control characters) is refused with a 401 that says why, not taken as no credentials.
     */
    static Authenticator trustedHeader(String headerName, Function<String, Role> roles) {
        Objects.requireNonNull(headerName, "headerName");
        Objects.requireNonNull(roles, "roles");
        return header -> Optional.ofNullable(header.apply(headerName))
                .map(String::strip)
                .filter(name -> !name.isEmpty())
                .flatMap(name -> {
                    Caller.checkName(name); // before the roles: a name that can be no one's is said to be so
                    return Optional.ofNullable(roles.apply(name)).map(role -> new Caller(name, role));
                });
    }
}
