package io.worldflow.dashboard.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.http.Context;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;

/** Request bodies, read no further than the limit. */
final class Bodies {

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
        if (declared != null) {
            try {
                if (Long.parseLong(declared.strip()) > maxBytes) {
                    throw tooLarge();
                }
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("Content-Length is not a number: " + declared);
            }
        }
        try (InputStream in = ctx.bodyInputStream()) {
            byte[] bytes = in.readNBytes(maxBytes + 1);
            if (bytes.length > maxBytes) {
                throw tooLarge();
            }
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException("reading a request body", e);
        }
    }

    /**
     * The body as JSON: it must be sent as {@code application/json} (which a cross-site form cannot do), and
     * an empty body reads as an empty object.
     */
    JsonNode json(Context ctx) {
        String type = ctx.contentType();
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw new ApiException(415, "unsupported_media_type", "send the request body as application/json, not "
                    + (type == null ? "no content type" : type));
        }
        byte[] bytes = read(ctx);
        if (isBlank(bytes)) {
            return Json.mapper().createObjectNode();
        }
        return Json.parse(bytes);
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
