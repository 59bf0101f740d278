package io.worldflow.tck;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.worldflow.ChainReport;
import io.worldflow.RunStatus;
import io.worldflow.format.LogChain;
import io.worldflow.runtime.JsonCodec;
import io.worldflow.spi.World;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Storage written by an earlier version must read back unchanged. Each world keeps, as test fixtures, the storage an
 * earlier version left after running the same runs through the public API (every kind of event, payloads with
 * nested records, decimals, quotes and accents, a failure's stack trace), and the timeline of each run as that
 * version's codec exported it. This checks a world opened over that storage against those timelines.
 *
 * <p>The fixtures under each world's {@code src/test/resources/fixtures} were written by commit 5052a14: a local
 * file of schema version 5, the rows of a Postgres schema of version 6 (inserted after the printed migrations up to
 * 6), and the items of the first DynamoDB layout.
 */
public final class StoredFixtures {

    /** The runs the fixtures hold, with the status each ended in. */
    public static final Map<String, RunStatus> RUNS = Map.of(
            "full-1", RunStatus.COMPLETED,
            "failing-1", RunStatus.FAILED,
            "canceled-1", RunStatus.CANCELED,
            "sleeping-1", RunStatus.SLEEPING);

    private static final ObjectMapper JSON = new ObjectMapper();

    private StoredFixtures() {}

    /** Every run of the fixture reads back as the earlier version exported it, and has the status it ended in. */
    public static void assertTimelinesReadBack(World world, InputStream exported) {
        JsonCodec codec = new JsonCodec();
        JsonNode expected;
        try (exported) {
            expected = JSON.readTree(exported);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(expected.size()).as("runs in the fixture").isEqualTo(RUNS.size());
        for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> run = it.next();
            String runId = run.getKey();
            JsonNode read;
            try {
                read = JSON.readTree(codec.encodeEvents(world.eventLog().read(runId, 0)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            assertThat(read).as("the timeline of %s", runId).isEqualTo(run.getValue());
            // written before the world kept links: nothing chained, nothing broken
            ChainReport chain = LogChain.verify(world.eventLog().storedLog(runId));
            assertThat(chain.intact()).as("%s: %s", runId, chain.problem()).isTrue();
            assertThat(chain.chainedFrom()).as(runId).isEqualTo(chain.logLength());
            assertThat(world.runQueries().get(runId)).as(runId).hasValueSatisfying(info -> {
                assertThat(info.status()).isEqualTo(RUNS.get(runId));
                // written before runs had search attributes: none
                assertThat(info.searchAttributes().isEmpty()).isTrue();
            });
        }
    }
}
