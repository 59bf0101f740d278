-- Worldflow Postgres world, schema version 9: when a finished run finished, and the finished runs in that order, so
-- that retention deletes the oldest of them without reading any other run.

-- updated_at while the status is terminal, else null, kept by the server. An index over updated_at itself would end
-- the HOT updates of runs in flight (every append changes updated_at); this column stays null while a run is in
-- flight, an unchanged value, and changes only when the run finishes or is reopened, when its status's index entry
-- (resting) is rewritten anyway. Adding it rewrites the table once, as version 4 did.
ALTER TABLE ${schema}.${prefix}runs ADD COLUMN finished_at bigint
    GENERATED ALWAYS AS (CASE WHEN status IN ('COMPLETED', 'FAILED', 'CANCELED') THEN updated_at END) STORED;
-- The finished runs alone, oldest first: a batch reads the runs it deletes.
CREATE INDEX ${prefix}runs_finished ON ${schema}.${prefix}runs (finished_at, run_id) WHERE finished_at IS NOT NULL;
