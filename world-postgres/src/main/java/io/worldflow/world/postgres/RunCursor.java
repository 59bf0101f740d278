package io.worldflow.world.postgres;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;

/**
 * Where a page of {@code list()} ended: the last run's creation time and id. Opaque to callers: base64url
 * of {@code <createdAtMicros>:<runId>}.
 */
record RunCursor(long createdAtMicros, String runId) {

    RunCursor {
        Objects.requireNonNull(runId, "runId");
    }

    String encode() {
        String text = createdAtMicros + ":" + runId;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @throws IllegalArgumentException when {@code cursor} was not made by {@link #encode()}
     */
    static RunCursor decode(String cursor) {
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
        return new IllegalArgumentException("malformed run list cursor '" + shown
                + "': pass the nextCursor of a previous page unchanged", cause);
    }
}
