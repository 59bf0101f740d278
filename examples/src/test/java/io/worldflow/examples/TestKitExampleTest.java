package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import io.worldflow.examples.OrderFulfilment.Approval;
import io.worldflow.examples.OrderFulfilment.Charge;
import io.worldflow.examples.OrderFulfilment.Item;
import io.worldflow.examples.OrderFulfilment.Order;
import io.worldflow.examples.OrderFulfilment.Receipt;
import io.worldflow.testing.TestWorld;
import io.worldflow.testing.WorldflowExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The demo workflow tested with the test kit: its week-long cool-off skipped, its payment provider mocked. */
class TestKitExampleTest {

    private final DemoServices services = new DemoServices(null, 0, false);
    private final Workflow<Order, Receipt> fulfil = OrderFulfilment.workflow(services, services, Duration.ofDays(7));
    private final Order order = new Order("o-1", "ada", List.of(new Item("mug", 1)), 1_200);

    // tag::testkit[]
    @RegisterExtension
    final WorldflowExtension worldflow =
            WorldflowExtension.builder().register(fulfil).build();

    @Test
    void anApprovedOrderShipsAfterItsWeekLongCoolOff(TestWorld world) {
        world.steps().when("charge").thenReturn(new Charge("ch-test", 1_200)); // no payment provider called
        RunHandle<Receipt> run = world.start(fulfil, order);

        // the seven days of cool-off pass at once; the wait for approval holds the clock
        world.awaitStatus(run.id(), RunStatus.WAITING, Duration.ofSeconds(10));
        world.signal(run.id(), "approval", new Approval(true, "me"));

        Receipt receipt = run.result(Duration.ofSeconds(10));
        assertThat(receipt.status()).isEqualTo("shipped");
        assertThat(receipt.chargeId()).isEqualTo("ch-test");
        world.steps().verifyCalled("charge", 1);
        assertThat(world.clock().instant())
                .isEqualTo(world.timeline(run.id()).getFirst().at().plus(Duration.ofDays(7)));
    }
    // end::testkit[]
}
