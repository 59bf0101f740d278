package io.worldflow.examples;

import io.worldflow.examples.OrderFulfilment.Charge;
import io.worldflow.examples.OrderFulfilment.Item;
import io.worldflow.examples.OrderFulfilment.Label;
import io.worldflow.examples.OrderFulfilment.Order;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stand-ins for a payment provider and a carrier. The provider can decline the first attempt of every
 * charge (so the demo shows a retry). Every call can be appended to a
 * ledger file, one line per side effect, so a test can count what really ran across process kills.
 */
final class DemoServices implements OrderFulfilment.Payments, OrderFulfilment.Shipping {

    private final Path ledger;
    private final long stepMillis;
    private final boolean declineFirstCharge;
    private final Set<String> declinedOnce = ConcurrentHashMap.newKeySet();

    DemoServices(Path ledger, long stepMillis, boolean declineFirstCharge) {
        this.ledger = ledger;
        this.stepMillis = stepMillis;
        this.declineFirstCharge = declineFirstCharge;
    }

    @Override
    public Charge charge(Order order, String idempotencyKey) {
        work("charge " + idempotencyKey);
        if (declineFirstCharge && declinedOnce.add(order.id())) {
            throw new IllegalStateException("payment provider busy, try again");
        }
        return new Charge("ch_" + Integer.toHexString(order.id().hashCode()), order.amountCents());
    }

    @Override
    public void refund(Charge charge, String idempotencyKey) {
        work("refund " + idempotencyKey);
    }

    @Override
    public Label label(Item item, String idempotencyKey) {
        work("label " + idempotencyKey);
        return new Label(item.sku(), "TRK" + Math.abs((long) item.sku().hashCode() % 1_000_000));
    }

    private void work(String what) {
        if (stepMillis > 0) {
            try {
                Thread.sleep(stepMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        if (ledger != null) {
            String line = ProcessHandle.current().pid() + " " + what + "\n";
            try {
                Files.writeString(
                        ledger,
                        line,
                        StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND,
                        StandardOpenOption.WRITE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
