package io.worldflow.examples;

import com.sun.net.httpserver.HttpServer;
import io.worldflow.RunHandle;
import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class OwnServerSignalsTest {

    @TempDir
    Path tmp;

    @Test
    void aSignalUrlPostedToTheApplicationsOwnServerReachesTheRun() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        int port = server.getAddress().getPort();
        Workflow<String, String> w =
                Workflow.define("own.v1", String.class, (ctx, in) -> "hello " + ctx.awaitSignal("name", String.class));
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", tmp + "/own.db")
                .property("worldflow.signal.url", "http://127.0.0.1:" + port)
                .property("worldflow.signal.secret", "an-application-secret-of-32-bytes-or-more")
                .register(w)
                .build()) {
            OwnServerSignals.mountSignals(server, wf);
            server.start();
            wf.startWorker();
            RunHandle<String> run = wf.start(w, "x");
            long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (run.status() != RunStatus.WAITING && System.nanoTime() < end) {
                Thread.sleep(10);
            }

            URI url = wf.signalUrl(run.id(), "name", Duration.ofMinutes(5));
            assertThat(url.toString()).startsWith("http://127.0.0.1:" + port + "/signals/");
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> ok = http.send(
                    HttpRequest.newBuilder(url)
                            .POST(HttpRequest.BodyPublishers.ofString("\"Ana\""))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            URI forged = URI.create(url.toString().replace("/name?", "/other?"));
            HttpResponse<String> refused = http.send(
                    HttpRequest.newBuilder(forged)
                            .POST(HttpRequest.BodyPublishers.ofString("\"Eve\""))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(ok.statusCode()).as(ok.body()).isEqualTo(202);
            assertThat(refused.statusCode()).isEqualTo(403);
            assertThat(run.result(Duration.ofSeconds(20))).isEqualTo("hello Ana");
            assertThat(URLDecoder.decode(url.getRawPath(), StandardCharsets.UTF_8))
                    .isEqualTo("/signals/" + run.id() + "/name");
        } finally {
            OwnServerSignals.stop(server);
        }
    }
}
