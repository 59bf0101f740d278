package io.worldflow.examples;

import io.worldflow.Secret;
import io.worldflow.Workflow;
import io.worldflow.runtime.PayloadKeys;
import io.worldflow.runtime.Worldflow;

/**
 * Card payments whose card number never reaches the database, the dashboard or a log line in clear: it travels as a
 * {@link Secret}, encrypted with the payload keys, while the rest of each payload stays readable for support.
 */
public final class CardPayments {

    private CardPayments() {}

    // tag::secret[]
    /** What support may read in the dashboard, and the card number, which only an admin sees. */
    public record Payment(String orderId, long cents, Secret<String> cardNumber) {}

    public static Workflow<Payment, String> workflow(CardGateway gateway) {
        return Workflow.define("payments.charge", Payment.class, (ctx, p) -> {
            // the code reads the value; what the log records of this step's input and result stays sealed
            String receipt =
                    ctx.step("charge", () -> gateway.charge(p.cardNumber().value(), p.cents()));
            return "paid " + p.orderId() + " (" + receipt + ")";
        });
    }

    public static Worldflow service(Workflow<Payment, String> charge, String dbPath, String keys) {
        return Worldflow.builder()
                .property("worldflow.local.path", dbPath)
                .property(PayloadKeys.KEYS, keys) // id:base64 of 32 random bytes
                .property(PayloadKeys.SCOPE, "secrets") // only Secrets are encrypted; "payloads" encrypts all
                .register(charge)
                .build();
    }
    // end::secret[]

    /** The card processor: charges a card and returns a receipt. */
    public interface CardGateway {
        String charge(String cardNumber, long cents);
    }
}
