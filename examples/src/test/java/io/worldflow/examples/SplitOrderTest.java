package io.worldflow.examples;

import io.worldflow.RunHandle;
import io.worldflow.RunStatus;
import io.worldflow.event.ChildWorkflowCompleted;
import io.worldflow.event.ChildWorkflowFailed;
import io.worldflow.examples.SplitOrder.Line;
import io.worldflow.examples.SplitOrder.Order;
import io.worldflow.examples.SplitOrder.Outcome;
import io.worldflow.runtime.Worldflow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(60)
class SplitOrderTest {

    @TempDir
    Path tmp;

    @Test
    void eachWarehouseShipsInAChildRunAndTheParentGathersWhatEachDid() {
        try (Worldflow wf = Worldflow.builder()
                .property("worldflow.local.path", tmp + "/split.db")
                .register(SplitOrder.SPLIT)
                .register(SplitOrder.SHIP_PART)
                .build()) {
            wf.startWorker();
            Order order = new Order(
                    "o-7",
                    List.of(new Line("mug", 1, "berlin"), new Line("tea", 2, "lyon"), new Line("pot", 0, "oslo")));
            RunHandle<Outcome> run = wf.start(SplitOrder.SPLIT, order);

            Outcome outcome = run.result(Duration.ofSeconds(30));
            assertThat(outcome.byWarehouse())
                    .isEqualTo(Map.of(
                            "berlin", "berlin-o-7",
                            "lyon", "lyon-o-7",
                            "oslo", "not shipped: nothing to pick in oslo"));
            assertThat(wf.events(run.id()))
                    .filteredOn(ChildWorkflowCompleted.class::isInstance)
                    .hasSize(2);
            assertThat(wf.events(run.id()))
                    .filteredOn(ChildWorkflowFailed.class::isInstance)
                    .hasSize(1);
            assertThat(wf.run(run.id() + "/warehouses/2/ship").orElseThrow().status())
                    .isEqualTo(RunStatus.FAILED);
        }
    }
}
