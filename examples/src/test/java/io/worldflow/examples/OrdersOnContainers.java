package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.RunStatus;
import io.worldflow.Workflow;
import io.worldflow.examples.OrderFulfilment.Approval;
import io.worldflow.examples.OrderFulfilment.Item;
import io.worldflow.examples.OrderFulfilment.Order;
import io.worldflow.examples.OrderFulfilment.Receipt;
import io.worldflow.runtime.Worldflow;
import io.worldflow.testing.ContainerWorlds;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.postgresql.PostgreSQLContainer;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's example of a user's own test on Testcontainers: the demo order on the Postgres world, on PostgreSQL in
 * a container. Only {@code -Pcontainers} runs it (its name does not end in {@code Test}); without Docker, Testcontainers fails it
 * saying that it found no Docker environment.
 */
// tag::containers[]
@Testcontainers
class OrdersOnContainers {

    @Container
    static final PostgreSQLContainer postgres = new PostgreSQLContainer("postgres:17");

    private final DemoServices services = new DemoServices(null, 0, false);
    private final Workflow<Order, Receipt> fulfil = OrderFulfilment.workflow(services, services, Duration.ZERO);

    @Test
    void anApprovedOrderShips() {
        try (Worldflow wf = Worldflow.builder()
                .properties(ContainerWorlds.postgres(postgres)) // worldflow.world=postgres, its URL, user, password
                .register(fulfil)
                .build()) {
            wf.startWorker();
            RunHandle<Receipt> run = wf.start(fulfil, new Order("o-1", "ada", List.of(new Item("mug", 1)), 900));
            while (run.status() != RunStatus.WAITING) {
                Thread.onSpinWait();
            }
            wf.signal(run.id(), "approval", new Approval(true, "me"));
            assertThat(run.result(Duration.ofSeconds(30)).status()).isEqualTo("shipped");
        }
    }
}
// end::containers[]
