package io.worldflow.world.postgres;

import io.worldflow.world.jdbc.Sql;
import io.worldflow.Payload;
import io.worldflow.spi.Append;
import io.worldflow.world.jdbc.EncodedAppend;
import io.worldflow.world.jdbc.Micros;

import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The run projections a batch of appends writes, one per run (its last successful append), gathered
 * column-wise for {@code unnest}: bound as {@code prStatus}, {@code prLength}, {@code prUpdated},
 * {@code prOutput}, {@code prOutputType} and {@code prError}, with the run ids under a name of the caller's.
 * Shared by both ways of writing a batch.
 */
final class ProjectionColumns {

    private record Projection(String status, long logLength, long updatedAt, String outputJson, String outputType,
                              String error) {
    }

    private final Map<String, Projection> byRun = new LinkedHashMap<>();

    /**
     * Notes the projection after {@code encoded} (replacing an earlier append's to the same run).
     *
     * @param now the projection's {@code updatedAt} for an append of the status alone (no events)
     */
    void add(EncodedAppend encoded, Instant now) {
        Append a = encoded.append();
        Payload output = a.output();
        byRun.put(a.runId(), new Projection(a.status().name(), a.nextSeq(),
                Micros.of(a.events().isEmpty() ? now : a.lastAt()), output == null ? null : output.json(),
                output == null ? null : output.type(), encoded.error()));
    }

    boolean isEmpty() {
        return byRun.isEmpty();
    }

    /** Binds the columns, the run ids as {@code idParam}. */
    void bind(Sql.Call call, String idParam) throws SQLException {
        int n = byRun.size();
        String[] ids = new String[n];
        String[] statuses = new String[n];
        Long[] lengths = new Long[n];
        Long[] updated = new Long[n];
        String[] outputs = new String[n];
        String[] outputTypes = new String[n];
        String[] errors = new String[n];
        int i = 0;
        for (Map.Entry<String, Projection> entry : byRun.entrySet()) {
            Projection p = entry.getValue();
            ids[i] = entry.getKey();
            statuses[i] = p.status();
            lengths[i] = p.logLength();
            updated[i] = p.updatedAt();
            outputs[i] = p.outputJson();
            outputTypes[i] = p.outputType();
            errors[i] = p.error();
            i++;
        }
        call.set(idParam, ids).set("prStatus", statuses).set("prLength", lengths).set("prUpdated", updated)
                .set("prOutput", outputs).set("prOutputType", outputTypes).set("prError", errors);
    }
}
