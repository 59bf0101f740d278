package io.worldflow.dashboard.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.http.Context;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * Request bodies, kept no further than the limit. A body over the limit is still read and dropped, up to
 * {@value #DRAIN_BYTES} bytes, before the 413 goes out: a server that answers and closes while the client is
 * still sending resets the connection, and the client may lose the answer.
 */
final class Bodies {

    static final long DRAIN_BYTES = 32L * 1024 * 1024;

    private final int maxBytes;

    Bodies(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    int maxBytes() {
        return maxBytes;
    }

    /** The raw body; 413 when it is larger than the limit (by its declared length, or as read). */
    byte[] read(Context ctx) {
        String declared = ctx.header("Content-Length");
        long length = -1;
        if (declared != null) {
            try {
                length = Long.parseLong(declared.strip());
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("Content-Length is not a number: " + declared);
            }
        }
        try (InputStream in = ctx.bodyInputStream()) {
            if (length > maxBytes) {
                throw tooLarge(in, length <= DRAIN_BYTES);
            }
            byte[] bytes = in.readNBytes(maxBytes + 1);
            if (bytes.length > maxBytes) {
                throw tooLarge(in, true);
            }
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException("reading a request body", e);
        }
    }

    /** The 413, after dropping what is left of the body (at most {@value #DRAIN_BYTES} bytes) when asked. */
    private ApiException tooLarge(InputStream in, boolean drain) throws IOException {
        if (drain) {
            byte[] scratch = new byte[16 * 1024];
            long left = DRAIN_BYTES;
            int n;
            while (left > 0 && (n = in.read(scratch, 0, (int) Math.min(scratch.length, left))) >= 0) {
                left -= n;
            }
        }
        return tooLarge();
    }

    /**
     * The body as JSON: it must be sent as {@code application/json} (which a cross-site form cannot do), and
     * an empty body reads as an empty object.
     */
    JsonNode json(Context ctx) {
        JsonNode node = jsonOrNull(ctx);
        return node == null ? Json.mapper().createObjectNode() : node;
    }

    /** The JSON body, or null when it is empty; as {@link #json}, it must be sent as {@code application/json}. */
    JsonNode jsonOrNull(Context ctx) {
        String type = ctx.contentType();
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw new ApiException(
                    415,
                    "unsupported_media_type",
                    "send the request as application/json, even with no body (a cross-site form cannot), not "
                            + (type == null ? "without a content type" : type));
        }
        byte[] bytes = read(ctx);
        return isBlank(bytes) ? null : Json.parse(bytes);
    }

    /** A JSON object body. */
    JsonNode object(Context ctx) {
        JsonNode node = json(ctx);
        if (!node.isObject()) {
            throw ApiException.badRequest("the request body must be a JSON object, was " + node.getNodeType());
        }
        return node;
    }

    private ApiException tooLarge() {
        return new ApiException(413, "body_too_large", "the request body is larger than " + maxBytes + " bytes");
    }

    static boolean isBlank(byte[] bytes) {
        for (byte b : bytes) {
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return false;
            }
        }
        return true;
    }
}
