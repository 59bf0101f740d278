package io.worldflow.spi;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;

/**
 * For world authors: where a page of {@link RunQueries#list} ended, the last run's creation time (epoch
 * microseconds) and id, as the opaque {@link io.worldflow.RunPage#nextCursor()}: base64url
 * of {@code <createdAtMicros>:<runId>}.
 */
public record RunCursor(long createdAtMicros, String runId) {

    public RunCursor {
        Objects.requireNonNull(runId, "runId");
    }

    public String encode() {
        String text = createdAtMicros + ":" + runId;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @throws IllegalArgumentException when {@code cursor} was not made by {@link #encode()}
     */
    public static RunCursor decode(String cursor) {
        String text;
        try {
            text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw malformed(cursor, e);
        }
        int colon = text.indexOf(':');
        if (colon <= 0) {
            throw malformed(cursor, null);
        }
        try {
            return new RunCursor(Long.parseLong(text.substring(0, colon)), text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw malformed(cursor, e);
        }
    }

    private static IllegalArgumentException malformed(String cursor, Throwable cause) {
        String shown = cursor.length() > 60 ? cursor.substring(0, 60) + "…" : cursor;
        return new IllegalArgumentException(
                "malformed run list cursor '" + shown + "': pass the nextCursor of a previous page unchanged", cause);
    }
}
