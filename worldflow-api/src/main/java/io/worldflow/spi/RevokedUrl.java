package io.worldflow.spi;

import java.time.Instant;
import java.util.Objects;

/**
 * A signal URL revoked before it expired ({@link Signals#revokeUrl}).
 *
 * @param tokenId   the id of its token: the first characters of its MAC, as the log names a URL that was used
 * @param revokedAt when it was revoked
 * @param actor     who revoked it ({@link io.worldflow.Actors}), or null when not known
 */
public record RevokedUrl(String tokenId, Instant revokedAt, String actor) {

    /** The longest token id a world keeps. */
    public static final int MAX_TOKEN_ID_LENGTH = 64;

    public RevokedUrl {
        Objects.requireNonNull(tokenId, "tokenId");
        Objects.requireNonNull(revokedAt, "revokedAt");
    }

    /**
     * @throws IllegalArgumentException when the token id is blank or longer than {@link #MAX_TOKEN_ID_LENGTH}
     */
    public static String checkTokenId(String tokenId) {
        if (tokenId == null || tokenId.isBlank() || tokenId.length() > MAX_TOKEN_ID_LENGTH) {
            throw new IllegalArgumentException("a signal URL's token id is 1.." + MAX_TOKEN_ID_LENGTH
                    + " characters, was " + (tokenId == null ? "null" : "'" + tokenId + "'"));
        }
        return tokenId;
    }
}
