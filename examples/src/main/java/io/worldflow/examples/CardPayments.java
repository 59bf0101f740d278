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

    public static Worldflow service(Workflow<?, ?> workflow, String dbPath, String keys) {
        return Worldflow.builder()
                .property("worldflow.local.path", dbPath)
                .property(PayloadKeys.KEYS, keys) // id:base64 of 32 random bytes
                .property(PayloadKeys.SCOPE, "secrets") // only Secrets are encrypted; "payloads" encrypts all
                .register(workflow)
                .build();
    }
    // end::secret[]

    // tag::secret-signal[]
    /** A customer's new card, as the bank's webhook posts it: plain JSON, with the number in clear. */
    public record CardUpdate(String customer, Secret<String> cardNumber) {}

    public static Workflow<String, String> renewal(CardGateway gateway) {
        return Workflow.define("payments.renew", String.class, (ctx, customer) -> {
                    CardUpdate card = ctx.awaitSignal("card-updated", CardUpdate.class);
                    return ctx.step(
                            "charge", () -> gateway.charge(card.cardNumber().value(), 999));
                })
                // a body posted to the API or a signal URL is read as a CardUpdate before it is stored: the number
                // is sealed, and a body that is not a CardUpdate is refused with a 400
                .withSignalType("card-updated", CardUpdate.class);
    }
    // end::secret-signal[]

    /** The card processor: charges a card and returns a receipt. */
    public interface CardGateway {
        String charge(String cardNumber, long cents);
    }
}
