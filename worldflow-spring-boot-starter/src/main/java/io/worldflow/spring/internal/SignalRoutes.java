package io.worldflow.spring.internal;

import io.worldflow.runtime.SignalEndpoint;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;
import org.springframework.web.util.UriComponentsBuilder;

import java.io.IOException;

/** Mounts the {@link SignalEndpoint} in the application's Spring MVC server, at {@link SignalEndpoint#PATH}. */
public final class SignalRoutes {

    private SignalRoutes() {}

    public static RouterFunction<ServerResponse> of(SignalEndpoint endpoint) {
        return RouterFunctions.route()
                .POST(SignalEndpoint.PATH, request -> post(endpoint, request))
                .build();
    }

    private static ServerResponse post(SignalEndpoint endpoint, ServerRequest request) throws IOException {
        // the token is read from the query alone: asking the servlet for parameters could read a form body
        String token = UriComponentsBuilder.fromUri(request.uri())
                .build()
                .getQueryParams()
                .getFirst("token");
        SignalEndpoint.Response response = endpoint.post(
                request.pathVariable("runId"),
                request.pathVariable("name"),
                token,
                request.servletRequest().getInputStream());
        return ServerResponse.status(response.status())
                .contentType(MediaType.APPLICATION_JSON)
                .body(response.json());
    }
}
