package io.worldflow.dashboard.internal;

import io.javalin.http.Context;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The dashboard's token: as {@code Authorization: Bearer <token>}, or as the {@value #COOKIE} cookie the
 * login sets (HttpOnly, SameSite=Strict, so other sites cannot use it). Compared in constant time.
 */
final class Auth {

    static final String COOKIE = "wf_token";

    private final byte[] token;
    private final boolean publicReads;

    Auth(String token, boolean publicReads) {
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.publicReads = publicReads;
    }

    /** Lets a request through or throws 401. Reads pass without the token when reads are public. */
    void check(Context ctx, boolean read) {
        if (read && publicReads) {
            return;
        }
        String given = presented(ctx);
        if (given == null) {
            throw new ApiException(
                    401,
                    "unauthorized",
                    "this needs the dashboard token: send 'Authorization: Bearer <token>' or log in");
        }
        if (!matches(given)) {
            throw new ApiException(401, "unauthorized", "the dashboard token is wrong");
        }
    }

    boolean matches(String given) {
        return given != null && MessageDigest.isEqual(token, given.getBytes(StandardCharsets.UTF_8));
    }

    /** Sets the login cookie for this browser. */
    void login(Context ctx, String given) {
        ctx.header("Set-Cookie", COOKIE + "=" + given + "; Path=/; HttpOnly; SameSite=Strict");
    }

    void logout(Context ctx) {
        ctx.header("Set-Cookie", COOKIE + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict");
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
}
