package io.worldflow.world.local;

import io.worldflow.Payload;
import io.worldflow.RunStatus;
import io.worldflow.event.Event;
import io.worldflow.event.MarkerRecorded;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.runtime.ManualClock;
import io.worldflow.spi.Append;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.CreateResult;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.TurnEnd;
import io.worldflow.spi.World;
import io.worldflow.spi.WorldConfig;
import io.worldflow.spi.WorldContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A fresh local world in a temporary directory, on a manual clock. */
@Timeout(30)
abstract class LocalWorldTestSupport {

    static final String QUEUE = "default";

    @TempDir
    Path dir;

    final JsonCodec codec = new JsonCodec();
    final ManualClock clock = ManualClock.start();
    World world;

    @BeforeEach
    void openWorld() {
        world = open(config());
    }

    @AfterEach
    void closeWorld() {
        if (world != null) {
            world.close();
        }
    }

    Path dbFile() {
        return dir.resolve("data").resolve("worldflow.db");
    }

    WorldConfig config() {
        return WorldConfig.of(
                Map.of(LocalWorldProvider.PATH, dbFile().toString(), LocalWorldProvider.SYNCHRONOUS, "NORMAL"));
    }

    World open(WorldConfig config) {
        return new LocalWorldProvider().create(new WorldContext(config, clock, codec.eventCodec()));
    }

    World reopen() {
        world.close();
        world = open(config());
        return world;
    }

    Instant now() {
        return clock.instant();
    }

    NewRun newRun(String runId) {
        return newRun(runId, "wf", now(), QUEUE, 0);
    }

    NewRun newRun(String runId, String workflow, Instant availableAt, String queue, int priority) {
        return new NewRun(
                runId, workflow, new Payload("{\"n\":1}", "com.acme.In"), now(), availableAt, null, queue, priority);
    }

    CreateResult create(String runId) {
        return world.eventLog().create(newRun(runId));
    }

    /** {@code count} marker events of the run starting at {@code fromSeq}. */
    List<Event> markers(String runId, long fromSeq, int count) {
        List<Event> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(new MarkerRecorded(
                    runId,
                    fromSeq + i,
                    now(),
                    "m" + (fromSeq + i),
                    "now",
                    new Payload("\"" + now() + "\"", "java.time.Instant")));
        }
        return out;
    }

    Append markerAppend(String runId, long expectedSeq, int count, RunStatus status) {
        return new Append(runId, expectedSeq, markers(runId, expectedSeq, count), status);
    }

    Append markerAppend(String runId, long expectedSeq, RunStatus status, TurnEnd turnEnd) {
        return new Append(runId, expectedSeq, markers(runId, expectedSeq, 1), status, List.of(), turnEnd);
    }

    AppendResult appendOne(Append append) {
        return world.eventLog().append(List.of(append)).getFirst();
    }
}
