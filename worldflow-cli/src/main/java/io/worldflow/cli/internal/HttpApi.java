package io.worldflow.cli.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.worldflow.cli.ExitCodes;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * Requests to a dashboard's HTTP API with the caller's token, and its answers read: a JSON error (its {@code error}
 * code and {@code message}) becomes a {@link CliException} with the exit status it means, an unreachable server or a
 * refused token one that says so.
 */
final class HttpApi {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private final URI root;
    private final String token;
    private final HttpClient http;
    private final ObjectMapper mapper;

    /**
     * @param root  the dashboard's root URL
     * @param token its token, or null to send none (a dashboard whose reads are public)
     */
    HttpApi(URI root, String token, ObjectMapper mapper) {
        this.root = root;
        this.token = token == null || token.isBlank() ? null : token.strip();
        this.mapper = mapper;
        this.http = HttpClient.newBuilder()
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** The root URL of {@code --server}, checked: http or https, with a host. */
    static URI root(String server) {
        URI uri;
        try {
            uri = URI.create(server.strip().replaceAll("/+$", ""));
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCodes.USAGE, "--server is not a URL: '" + server + "'");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new CliException(
                    ExitCodes.USAGE,
                    "--server must be the dashboard's http or https URL, such as http://127.0.0.1:7070, was '" + server
                            + "'");
        }
        return uri;
    }

    URI root() {
        return root;
    }

    /** A path segment: a run id or a name, escaped so that {@code /}, {@code @} or spaces in it stay in it. */
    static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    JsonNode get(String path) {
        return json(text(request(path).GET()));
    }

    String getText(String path) {
        return text(request(path).GET());
    }

    JsonNode post(String path, String body) {
        return json(text(request(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))));
    }

    JsonNode put(String path, String body) {
        return json(text(request(path)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))));
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(root + path))
                .timeout(REQUEST_TIMEOUT)
                .header("Accept", "application/json");
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return b;
    }

    private String text(HttpRequest.Builder request) {
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpTimeoutException e) {
            throw new CliException(
                    ExitCodes.UNAVAILABLE,
                    "the server at " + root + " did not answer in time (" + e.getMessage() + ")",
                    e);
        } catch (ConnectException e) {
            throw new CliException(
                    ExitCodes.UNAVAILABLE,
                    "cannot reach the server at " + root + ": "
                            + (e.getMessage() == null ? "connection refused" : e.getMessage()),
                    e);
        } catch (IOException e) {
            throw new CliException(
                    ExitCodes.UNAVAILABLE, "cannot reach the server at " + root + ": " + Failures.message(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCodes.UNAVAILABLE, "interrupted while waiting for the server at " + root, e);
        }
        if (response.statusCode() >= 400) {
            throw failure(response.statusCode(), response.body());
        }
        return response.body();
    }

    private JsonNode json(String body) {
        try {
            return mapper.readTree(body);
        } catch (JsonProcessingException e) {
            throw new CliException(
                    ExitCodes.UNAVAILABLE,
                    "the server at " + root + " answered something that is not JSON: is it a Worldflow dashboard?",
                    e);
        }
    }

    /** An error answer as the exit status it means and the line that says what was wrong. */
    private CliException failure(int status, String body) {
        String code = null;
        String message = null;
        try {
            JsonNode error = mapper.readTree(body);
            if (error != null && error.hasNonNull("error")) {
                code = error.path("error").asText();
                message = error.path("message").asText(code);
            }
        } catch (JsonProcessingException e) {
            // not the API's error: said below
        }
        if (code == null) {
            return new CliException(
                    ExitCodes.UNAVAILABLE,
                    "the server at " + root + " answered " + status + " without a Worldflow error:"
                            + " is it a Worldflow dashboard?");
        }
        return switch (status) {
            case 401 ->
                new CliException(
                        ExitCodes.UNAVAILABLE,
                        token == null
                                ? "the server at " + root + " needs a token: give --token or set WORLDFLOW_TOKEN"
                                : "the server at " + root + " refused the token: " + message);
            case 403 -> new CliException(ExitCodes.UNAVAILABLE, "the server at " + root + " refused: " + message);
            case 404 ->
                code.endsWith("_not_found")
                        ? new CliException(ExitCodes.NOT_FOUND, message)
                        : new CliException(
                                ExitCodes.UNAVAILABLE,
                                "the server at " + root + " has no such route (" + message
                                        + "): is it a Worldflow dashboard of this version?");
            case 409 -> new CliException(ExitCodes.PROBLEM, message);
            case 503 ->
                new CliException(
                        code.equals("not_configured") ? ExitCodes.USAGE : ExitCodes.UNAVAILABLE,
                        "the server at " + root + ": " + message);
            default ->
                status < 500
                        ? new CliException(ExitCodes.USAGE, message)
                        : new CliException(ExitCodes.UNAVAILABLE, "the server at " + root + " failed: " + message);
        };
    }
}
