package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.Secret;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

class CardPaymentsTest {

    @TempDir
    Path dir;

    @Test
    void theCardNumberReachesTheGatewayButNotTheDatabaseNorTheRunsText() throws Exception {
        List<String> charged = new CopyOnWriteArrayList<>();
        Workflow<CardPayments.Payment, String> charge = CardPayments.workflow((card, cents) -> {
            charged.add(card);
            return "rcpt-" + cents;
        });
        String key = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());
        Path db = dir.resolve("payments.db");
        CardPayments.Payment payment = new CardPayments.Payment("order-77", 1999, Secret.of("4000-1234-5678-9010"));
        try (Worldflow wf = CardPayments.service(charge, db.toString(), "k1:" + key)) {
            wf.startWorker();
            RunHandle<String> run = wf.start(charge, payment, StartOptions.id("pay-77"));

            assertThat(run.result(Duration.ofSeconds(30))).isEqualTo("paid order-77 (rcpt-1999)");
            assertThat(charged).containsExactly("4000-1234-5678-9010");
            assertThat(payment.toString()).contains("order-77").doesNotContain("4000-1234");
            assertThat(wf.run("pay-77").orElseThrow().input().json())
                    .contains("order-77")
                    .doesNotContain("4000-1234");
        }
        String file = new String(Files.readAllBytes(db), StandardCharsets.ISO_8859_1)
                + (Files.exists(dir.resolve("payments.db-wal"))
                        ? new String(Files.readAllBytes(dir.resolve("payments.db-wal")), StandardCharsets.ISO_8859_1)
                        : "");
        assertThat(file).contains("order-77", "wf:sec:v1:k1:").doesNotContain("4000-1234-5678-9010");
    }
}
