package io.worldflow.dashboard.internal;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The web UI's files, read once from the class path and served from memory. Not the web server's own static file
 * handler: that one resolves the folder as a file system, which an application's executable jar (a jar of jars, as
 * Spring Boot builds it) is not, so every page there was a 404. Each file is named here: a folder inside a jar cannot
 * be listed, and a test checks that this list and the folder agree.
 */
final class WebFiles {

    static final String FOLDER = "/io/worldflow/dashboard/web/";

    /** Every file of {@link #FOLDER}, each served at {@code /<name>}; {@code index.html} also at {@code /}. */
    static final List<String> NAMES = List.of(
            "index.html",
            "login.html",
            "run.html",
            "schedules.html",
            "queues.html",
            "app.css",
            "app.js",
            "charts.js",
            "login.js",
            "queues.js",
            "run.js",
            "runs.js",
            "schedules.js",
            "timeline.js");

    private record File(String name, byte[] bytes, String contentType, String etag) {}

    private final List<File> files;

    WebFiles() {
        this.files = NAMES.stream().map(WebFiles::read).toList();
    }

    void install(RoutesConfig r) {
        for (File f : files) {
            r.get("/" + f.name(), ctx -> serve(ctx, f));
            if (f.name().equals("index.html")) {
                r.get("/", ctx -> serve(ctx, f));
            }
        }
    }

    /**
     * The file, revalidated at every load (its tag is its content's hash) so that a browser never runs the script of
     * one release against the page of another.
     */
    private static void serve(Context ctx, File f) {
        ctx.header("Cache-Control", "no-cache");
        ctx.header("ETag", f.etag());
        if (f.etag().equals(ctx.header("If-None-Match"))) {
            ctx.status(304);
            return;
        }
        ctx.contentType(f.contentType()).result(f.bytes());
    }

    private static File read(String name) {
        try (InputStream in = WebFiles.class.getResourceAsStream(FOLDER + name)) {
            if (in == null) {
                throw new IllegalStateException("the dashboard's jar lacks " + FOLDER + name);
            }
            byte[] bytes = in.readAllBytes();
            return new File(name, bytes, contentType(name), etag(bytes));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + FOLDER + name, e);
        }
    }

    static String contentType(String name) {
        if (name.endsWith(".html")) {
            return "text/html; charset=utf-8";
        }
        if (name.endsWith(".css")) {
            return "text/css; charset=utf-8";
        }
        if (name.endsWith(".js")) {
            return "text/javascript; charset=utf-8";
        }
        throw new IllegalArgumentException("no content type known for " + name);
    }

    private static String etag(byte[] bytes) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(bytes);
            return "\"" + HexFormat.of().formatHex(hash, 0, 16) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
