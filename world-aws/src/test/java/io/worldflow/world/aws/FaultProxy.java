package io.worldflow.world.aws;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP proxy in front of an emulator that answers chosen calls with real AWS error responses (the status
 * and JSON body the service sends) instead of forwarding them, so the SDK sees genuine throttling and 5xx.
 */
final class FaultProxy implements AutoCloseable {

    /** An error to answer a call with: the HTTP status and the AWS error type. */
    record Fault(String target, int status, String type) {}

    private static final Set<String> HOP_HEADERS =
            Set.of("host", "content-length", "connection", "transfer-encoding", "expect", "upgrade");

    private final HttpServer server;
    private final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final URI target;
    private final ConcurrentLinkedQueue<Fault> planned = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Fault> injected = new ConcurrentLinkedQueue<>();
    private volatile String alwaysFail;
    private final AtomicInteger forwarded = new AtomicInteger();

    FaultProxy(String targetEndpoint) throws IOException {
        this.target = URI.create(targetEndpoint);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The next calls of each fault's target (e.g. {@code DynamoDB_20120810.TransactWriteItems}) fail, in order. */
    void plan(List<Fault> faults) {
        planned.addAll(faults);
    }

    /** Every call of this target fails with HTTP 500 until cleared with null. */
    void alwaysFail(String target) {
        alwaysFail = target;
    }

    List<Fault> injected() {
        return List.copyOf(injected);
    }

    int pending() {
        return planned.size();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            byte[] body = ex.getRequestBody().readAllBytes();
            String amzTarget = ex.getRequestHeaders().getFirst("X-Amz-Target");
            Fault fault = null;
            if (amzTarget != null && amzTarget.equals(alwaysFail)) {
                fault = new Fault(amzTarget, 500, "InternalFailure");
            } else if (amzTarget != null) {
                for (Fault next : planned) {
                    if (next.target().equals(amzTarget) && planned.remove(next)) {
                        fault = next;
                        break;
                    }
                }
            }
            if (fault != null) {
                injected.add(fault);
                byte[] error = ("{\"__type\":\"com.amazonaws.dynamodb.v20120810#" + fault.type()
                                + "\",\"message\":\"injected by the test proxy\"}")
                        .getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
                ex.getResponseHeaders().add("x-amzn-ErrorType", fault.type());
                ex.sendResponseHeaders(fault.status(), error.length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(error);
                }
                return;
            }
            HttpRequest.Builder request = HttpRequest.newBuilder(target.resolve(ex.getRequestURI()))
                    .method(ex.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
            ex.getRequestHeaders().forEach((name, values) -> {
                if (!HOP_HEADERS.contains(name.toLowerCase())) {
                    values.forEach(v -> request.header(name, v));
                }
            });
            HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            forwarded.incrementAndGet();
            response.headers().map().forEach((name, values) -> {
                if (!HOP_HEADERS.contains(name.toLowerCase()) && !name.startsWith(":")) {
                    values.forEach(v -> ex.getResponseHeaders().add(name, v));
                }
            });
            byte[] answer = response.body();
            ex.sendResponseHeaders(response.statusCode(), answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(answer);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
