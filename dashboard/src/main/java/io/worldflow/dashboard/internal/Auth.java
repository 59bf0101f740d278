package io.worldflow.dashboard.internal;

import io.javalin.http.Context;
import io.worldflow.dashboard.Authenticator;
import io.worldflow.dashboard.Caller;
import io.worldflow.dashboard.DashboardSettings;
import io.worldflow.dashboard.DashboardToken;
import io.worldflow.dashboard.Role;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Who a request comes from and whether its role lets it through. A caller presents a token as {@code Authorization:
 * Bearer <token>}, or as the {@value #COOKIE} cookie the login sets (HttpOnly, SameSite=Strict, so other sites cannot
 * use it); tokens are compared in constant time, each of them every time, so that timing tells nothing about which
 * one came close. A request without a token is given to the application's {@link Authenticator}, if any. Every
 * refusal is logged with the caller, the request and the role it needed.
 */
final class Auth {

    static final String COOKIE = "wf_token";
    /** The request attribute that holds its {@link Caller} once authorized. */
    static final String CALLER = "worldflow.caller";

    private static final Logger LOG = LoggerFactory.getLogger(Auth.class);

    private record Known(byte[] token, Caller caller) {}

    private final List<Known> known = new ArrayList<>();
    private final boolean publicReads;
    private final Authenticator authenticator;

    /** @param authenticator null when the application authenticates nobody itself */
    Auth(String adminToken, List<DashboardToken> tokens, boolean publicReads, Authenticator authenticator) {
        known.add(new Known(bytes(adminToken), new Caller(DashboardSettings.ADMIN_NAME, Role.ADMIN)));
        for (DashboardToken t : tokens) {
            known.add(new Known(bytes(t.token()), new Caller(t.name(), t.role())));
        }
        this.publicReads = publicReads;
        this.authenticator = authenticator;
    }

    /** Whether the request's caller, as {@link #require} found it, may see secrets in clear: an admin. */
    static boolean seesSecrets(Context ctx) {
        return ctx.attribute(CALLER) instanceof Caller c && c.role() == Role.ADMIN;
    }

    /**
     * Lets a request that needs {@code needed} through, noting its caller on it, or throws 401 (no or a wrong
     * credential) or 403 (a role below {@code needed}). Reads pass without credentials when reads are public.
     */
    Caller require(Context ctx, Role needed) {
        Optional<Caller> caller;
        try {
            caller = identify(ctx);
        } catch (ApiException e) {
            refused(
                    ctx,
                    presented(ctx) != null ? "a wrong token" : "an identity refused (" + e.getMessage() + ")",
                    needed);
            throw e;
        }
        if (caller.isEmpty()) {
            if (needed == Role.VIEWER && publicReads) {
                ctx.attribute(CALLER, Caller.ANONYMOUS);
                return Caller.ANONYMOUS;
            }
            refused(ctx, "no credentials", needed);
            throw new ApiException(
                    401,
                    "unauthorized",
                    "this needs a dashboard token: send 'Authorization: Bearer <token>' or log in");
        }
        Caller c = caller.get();
        if (!c.role().allows(needed)) {
            refused(ctx, "'" + c.name() + "' (" + c.role().label() + ")", needed);
            throw new ApiException(
                    403,
                    "forbidden",
                    "'" + c.name() + "' has the role " + c.role().label() + "; "
                            + ctx.method().name() + " " + ctx.path() + " needs the role " + needed.label()
                            + " or above");
        }
        ctx.attribute(CALLER, c);
        return c;
    }

    /**
     * The caller the request's credentials name: its token's, or else the one the application's authenticator gives;
     * empty when it presents neither.
     *
     * @throws ApiException 401 when it presents a token that is not one of the dashboard's
     */
    Optional<Caller> identify(Context ctx) {
        String given = presented(ctx);
        if (given != null) {
            Caller c = lookup(given);
            if (c == null) {
                throw new ApiException(401, "unauthorized", "the dashboard token is wrong");
            }
            return Optional.of(c);
        }
        if (authenticator == null) {
            return Optional.empty();
        }
        Optional<Caller> caller;
        try {
            caller = authenticator.authenticate(ctx::header);
        } catch (IllegalArgumentException e) {
            // a name that cannot be a caller's: said, rather than taken as no credentials at all
            throw new ApiException(
                    401,
                    "unauthorized",
                    "the application's authenticator gave an identity that is refused: " + e.getMessage());
        }
        if (caller.isPresent()
                && known.stream()
                        .anyMatch(k -> k.caller().name().equals(caller.get().name()))) {
            // recorded as dashboard:<name> in runs' logs, it would pass for the token's holder: refused, never guessed
            throw new ApiException(
                    401,
                    "unauthorized",
                    "the identity '" + caller.get().name() + "' the application's authenticator gave is the name of a"
                            + " dashboard token; give the person another name");
        }
        return caller;
    }

    /** The caller whose token this is, or null. */
    Caller lookup(String given) {
        if (given == null) {
            return null;
        }
        byte[] g = bytes(given);
        Caller found = null;
        for (Known k : known) {
            if (MessageDigest.isEqual(k.token(), g)) {
                found = k.caller();
            }
        }
        return found;
    }

    /** Sets the login cookie for this browser. */
    void login(Context ctx, String given) {
        ctx.header("Set-Cookie", COOKIE + "=" + given + "; Path=/; HttpOnly; SameSite=Strict");
    }

    void logout(Context ctx) {
        ctx.header("Set-Cookie", COOKIE + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict");
    }

    private static void refused(Context ctx, String who, Role needed) {
        LOG.warn("refused " + ctx.method().name() + " " + ctx.path() + " from " + who + " (from " + ctx.ip()
                + "): it needs the role " + needed.label());
    }

    private static String presented(Context ctx) {
        String header = ctx.header("Authorization");
        if (header != null) {
            return header.regionMatches(true, 0, "Bearer ", 0, 7)
                    ? header.substring(7).strip()
                    : "";
        }
        return ctx.cookie(COOKIE);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
