package io.worldflow.tck;

import io.worldflow.PayloadKeyException;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.Secret;
import io.worldflow.SerializationException;
import io.worldflow.StartOptions;
import io.worldflow.Workflow;
import io.worldflow.runtime.PayloadKeys;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Payloads encrypted at rest: with {@value PayloadKeys#KEYS} set, no input, step result, signal or output is stored in
 * clear anywhere in the world (its files, rows or items, looked at directly), and everything reads back; a run whose
 * recorded payload is under a key that was removed is held, not failed, naming the key, while other runs go on, and it
 * goes on once the key is back.
 */
public abstract class EncryptionContract extends WorkflowContractSupport {

    private static final String K1 = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());
    private static final String K2 = Base64.getEncoder().encodeToString("fedcba9876543210fedcba9876543210".getBytes());

    private static final String CARD = "4242-MARKER-CARD-4242";
    private static final String RECEIPT = "MARKER-RECEIPT-77";
    private static final String PIN = "MARKER-SIGNAL-PIN-55";

    protected EncryptionContract(WorldConformanceKit kit) {
        super(kit);
    }

    /** A card charged: the number in its input, a receipt from its step, a PIN by signal, all in its output. */
    public record Card(String holder, String number) {}

    private final Workflow<Card, String> charge = Workflow.define("tck.enc.charge", Card.class, (ctx, card) -> {
        String receipt = ctx.step("charge", () -> RECEIPT + " for " + card.number());
        String pin = ctx.awaitSignal("pin", String.class, Duration.ofDays(1)).orElse("none");
        return receipt + " confirmed with " + pin;
    });

    private final Workflow<String, String> echo =
            Workflow.define("tck.enc.echo", String.class, (ctx, in) -> ctx.step("echo", () -> "echo " + in));

    /** A payment whose card number is a secret: the only part of it encrypted when the scope is secrets. */
    public record Payment(String holder, Secret<String> card) {}

    private final Workflow<Payment, String> pay = Workflow.define("tck.enc.pay", Payment.class, (ctx, p) -> {
        Secret<String> token =
                ctx.step("tokenize", () -> Secret.of("tok-" + p.card().value()));
        return p.holder() + " paid with " + token.value().length() + " characters of token";
    });

    /** A new card, sent by a bank's webhook as plain JSON: its number is a secret once read as this type. */
    public record CardUpdate(String holder, Secret<String> card) {}

    private final Workflow<String, String> renew = Workflow.define("tck.enc.renew", String.class, (ctx, holder) -> {
                CardUpdate update = ctx.awaitSignal("card", CardUpdate.class);
                String card = update.card().value();
                return holder + " renewed with " + update.holder() + "'s card ending "
                        + card.substring(card.length() - 4);
            })
            .withSignalType("card", CardUpdate.class);

    private Worldflow withKeys(String keys) {
        return withKeys(keys, "payloads");
    }

    private Worldflow withKeys(String keys, String scope) {
        wf = Worldflow.builder()
                .world(world)
                .clock(clock)
                .property(PayloadKeys.KEYS, keys)
                .property(PayloadKeys.SCOPE, scope)
                .register(charge)
                .register(echo)
                .register(pay)
                .register(renew)
                .build();
        wf.startWorker(workerOptions().withHoldRetry(Duration.ofMillis(200)));
        return wf;
    }

    @Test
    void noPayloadIsStoredInClearAndEveryOneReadsBack() throws Exception {
        withKeys("k1:" + K1);

        wf.start(charge, new Card("Ana", CARD), StartOptions.id("enc-run-1"));
        awaitStatus("enc-run-1", RunStatus.WAITING);
        wf.signal("enc-run-1", "pin", PIN);

        String expected = RECEIPT + " for " + CARD + " confirmed with " + PIN;
        assertThat(wf.handle("enc-run-1", String.class).result(WAIT)).isEqualTo(expected);
        String stored = kit().storedText(storageId());
        assertThat(stored).as("the world's own data is there to look in").contains("enc-run-1", "tck.enc.charge");
        assertThat(stored).contains("wf:enc:v1:k1:");
        for (String marker : new String[] {CARD, RECEIPT, PIN, "Ana"}) {
            assertThat(stored).as("stored in clear: " + marker).doesNotContain(marker);
        }
    }

    @Test
    void withTheScopeSecretsOnlyTheSecretsAreStoredEncryptedAndTheCodeReadsThem() throws Exception {
        withKeys("k1:" + K1, "secrets");

        String out = wf.start(pay, new Payment("Bea-MARKER-HOLDER", Secret.of(CARD)), StartOptions.id("enc-pay"))
                .result(WAIT);

        assertThat(out).isEqualTo("Bea-MARKER-HOLDER paid with " + ("tok-" + CARD).length() + " characters of token");
        String stored = kit().storedText(storageId());
        assertThat(stored).as("the rest of the payload is in clear").contains("Bea-MARKER-HOLDER");
        assertThat(stored)
                .contains("wf:sec:v1:k1:")
                .doesNotContain("wf:enc:v1:")
                .doesNotContain(CARD);
    }

    @Test
    void aRunUnderARemovedKeyIsHeldNamingItAndGoesOnWhenTheKeyIsBack() {
        withKeys("k1:" + K1);
        wf.start(charge, new Card("Ana", CARD), StartOptions.id("enc-held"));
        awaitStatus("enc-held", RunStatus.WAITING);
        wf.close();
        world = reopen();

        withKeys("k2:" + K2); // k1 removed: the run's recorded input and step result are under it
        wf.signal("enc-held", "pin", PIN);
        RunInfo held = awaitRun("enc-held", "held", RunInfo::isHeld);
        assertThat(held.status()).isNotEqualTo(RunStatus.FAILED);
        assertThat(held.held().message())
                .contains("key 'k1'")
                .as("a key is missing; the code has not changed")
                .doesNotContain("can no longer be read as");
        assertThat(held.held().type()).isEqualTo(PayloadKeyException.class.getName());
        assertThat(wf.start(echo, "other", StartOptions.id("enc-other")).result(WAIT))
                .as("another run goes on")
                .isEqualTo("echo other");
        wf.close();
        world = reopen();

        withKeys("k2:" + K2 + ",k1:" + K1);
        awaitStatus("enc-held", RunStatus.COMPLETED);
        assertThat(wf.handle("enc-held", String.class).result(WAIT)).endsWith("confirmed with " + PIN);
    }

    @Test
    void aSignalSentAsJsonIsReadAsItsDeclaredTypeSoItsSecretsAreSealedAndABodyOfTheWrongShapeIsRefused()
            throws Exception {
        withKeys("k1:" + K1, "secrets");
        wf.start(renew, "Cy", StartOptions.id("enc-renew"));
        wf.start(renew, "Di", StartOptions.id("enc-renew-other"));
        awaitStatus("enc-renew", RunStatus.WAITING);

        // as the HTTP API, a signal URL and the CLI hand a body over: JSON read as maps, lists and strings
        assertThatThrownBy(
                        () -> wf.signal("enc-renew", "card", Map.of("holder", List.of("not", "a name"), "card", CARD)))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining(
                        "signal 'card' of workflow 'tck.enc.renew' is declared as " + CardUpdate.class.getName())
                .hasMessageContaining("run 'enc-renew'")
                .hasMessageContaining("(at holder)");
        // a field left out, or every one, would reach the code as a null: refused too
        assertThatThrownBy(() -> wf.signal("enc-renew", "card", Map.of("holder", "Cy")))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("does not read as one")
                .hasMessageContaining("'card'");
        assertThatThrownBy(() -> wf.signal("enc-renew", "card", Map.of()))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("does not read as one");
        // the refused bodies were not stored: the run takes the next one sent, which it could not do after a bad one
        wf.signal("enc-renew", "card", Map.of("holder", "Cy-MARKER-HOLDER", "card", CARD));

        assertThat(wf.handle("enc-renew", String.class).result(WAIT))
                .isEqualTo("Cy renewed with Cy-MARKER-HOLDER's card ending 4242");
        String stored = kit().storedText(storageId());
        assertThat(stored).contains("Cy-MARKER-HOLDER", "wf:sec:v1:k1:").doesNotContain(CARD);
        assertThat(wf.run("enc-renew-other").orElseThrow().status())
                .as("another run of the workflow is not touched")
                .isEqualTo(RunStatus.WAITING);
    }
}
