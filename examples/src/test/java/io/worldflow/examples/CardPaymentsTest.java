package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.Secret;
import io.worldflow.SerializationException;
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
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    @Test
    void aNewCardPostedAsPlainJsonIsStoredSealedAndABodyThatIsNoCardUpdateIsRefused() throws Exception {
        List<String> charged = new CopyOnWriteArrayList<>();
        Workflow<String, String> renew = CardPayments.renewal((card, cents) -> {
            charged.add(card);
            return "rcpt-" + cents;
        });
        String key = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());
        Path db = dir.resolve("renewals.db");
        try (Worldflow wf = CardPayments.service(renew, db.toString(), "k1:" + key)) {
            wf.startWorker();
            RunHandle<String> run = wf.start(renew, "cust-9", StartOptions.id("renew-9"));
            // what the dashboard's API and a signal URL make of a posted body: maps of plain values
            assertThatThrownBy(() -> wf.signal("renew-9", "card-updated", Map.of("customer", Map.of("id", 9))))
                    .isInstanceOf(SerializationException.class)
                    .hasMessageContaining("declared as " + CardPayments.CardUpdate.class.getName());
            wf.signal("renew-9", "card-updated", Map.of("customer", "cust-9", "cardNumber", "4000-9999-8888-7777"));

            assertThat(run.result(Duration.ofSeconds(30))).isEqualTo("rcpt-999");
            assertThat(charged).containsExactly("4000-9999-8888-7777");
        }
        String file = new String(Files.readAllBytes(db), StandardCharsets.ISO_8859_1)
                + (Files.exists(dir.resolve("renewals.db-wal"))
                        ? new String(Files.readAllBytes(dir.resolve("renewals.db-wal")), StandardCharsets.ISO_8859_1)
                        : "");
        assertThat(file).contains("cust-9", "wf:sec:v1:k1:").doesNotContain("4000-9999-8888-7777");
    }
}
