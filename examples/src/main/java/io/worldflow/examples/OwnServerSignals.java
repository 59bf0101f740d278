package io.worldflow.examples;

import com.sun.net.httpserver.HttpServer;
import io.worldflow.runtime.SignalEndpoint;
import io.worldflow.runtime.Worldflow;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Mounting the signal-URL endpoint in an application's own web server (here the JDK's), instead of the
 * dashboard's. The URLs {@code wf.signalUrl(...)} makes point at {@code worldflow.signal.url}.
 */
public final class OwnServerSignals {

    private OwnServerSignals() {}

    // tag::own-server[]
    static void mountSignals(HttpServer server, Worldflow wf) {
        SignalEndpoint signals = wf.signalEndpoint();
        server.createContext("/signals/", exchange -> {
            // the path is /signals/{runId}/{name}; the query is token=...
            String[] path = exchange.getRequestURI().getPath().split("/");
            String query = exchange.getRequestURI().getRawQuery();
            String token = query != null && query.startsWith("token=") ? query.substring(6) : null;
            SignalEndpoint.Response r = "POST".equals(exchange.getRequestMethod()) && path.length == 4
                    ? signals.post(path[2], path[3], token, exchange.getRequestBody())
                    : new SignalEndpoint.Response(404, "{\"error\":\"not_found\"}");
            byte[] body = r.json().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(r.status(), body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
    }
    // end::own-server[]

    /** Closes {@code server} quietly; for tests. */
    static void stop(HttpServer server) throws IOException {
        server.stop(0);
    }
}
