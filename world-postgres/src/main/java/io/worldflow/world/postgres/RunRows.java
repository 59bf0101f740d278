package io.worldflow.world.postgres;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.WorldException;
import io.worldflow.spi.EventCodec;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.SelectField;

import java.util.Optional;

/** Reads rows of the {@code runs} table into {@link RunInfo}. */
final class RunRows {

    private final Tables.Runs runs;
    private final EventCodec codec;
    /** The columns {@link #map} reads. */
    final SelectField<?>[] columns;

    RunRows(Tables tables, EventCodec codec) {
        this.runs = tables.runs;
        this.codec = codec;
        this.columns = new SelectField<?>[]{runs.runId, runs.workflow, runs.status, runs.inputJson, runs.inputType,
                runs.outputJson, runs.outputType, runs.error, runs.createdAt, runs.updatedAt, runs.availableAt,
                runs.deadline, runs.queue, runs.priority, runs.logLength, runs.cancelRequested, runs.held,
                runs.cancelReason, runs.cancelRequestedAt};
    }

    Optional<RunInfo> find(DSLContext sql, String runId) {
        Record r = sql.select(columns).from(runs.table).where(runs.runId.eq(runId)).fetchOne();
        return r == null ? Optional.empty() : Optional.of(map(r));
    }

    /** The row as a run. Cancellation counts as requested only until the run has finished. */
    RunInfo map(Record r) {
        String runId = r.get(runs.runId);
        RunStatus status = status(r.get(runs.status), runId);
        boolean cancelRequested = Boolean.TRUE.equals(r.get(runs.cancelRequested)) && !status.isTerminal();
        return new RunInfo(
                runId,
                r.get(runs.workflow),
                status,
                new Payload(r.get(runs.inputJson), r.get(runs.inputType)),
                payload(r.get(runs.outputJson), r.get(runs.outputType)),
                error(r.get(runs.error)),
                Micros.toInstant(r.get(runs.createdAt)),
                Micros.toInstant(r.get(runs.updatedAt)),
                Micros.toInstant(r.get(runs.availableAt)),
                Micros.toInstant(r.get(runs.deadline)),
                r.get(runs.queue),
                r.get(runs.priority),
                r.get(runs.logLength),
                cancelRequested
                        ? new RunInfo.CancelRequest(r.get(runs.cancelReason), Micros.toInstant(r.get(runs.cancelRequestedAt)))
                        : null,
                error(r.get(runs.held)));
    }

    static RunStatus status(String stored, String runId) {
        try {
            return RunStatus.valueOf(stored);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new WorldException("postgres world: run '" + runId + "' has an unknown status '" + stored + "'",
                    false, e);
        }
    }

    private ErrorInfo error(String json) {
        return json == null ? null : codec.decodeError(json);
    }

    private static Payload payload(String json, String type) {
        return json == null ? null : new Payload(json, type);
    }
}
