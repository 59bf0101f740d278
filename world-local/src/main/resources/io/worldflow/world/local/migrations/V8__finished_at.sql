-- Worldflow local world, schema version 8: when a finished run finished, and the finished runs in that order, so that
-- retention deletes the oldest of them without reading any other run.

-- updated_at while the status is terminal, else null: computed from the row (VIRTUAL), stored only in the index, which
-- holds the finished runs alone.
ALTER TABLE runs ADD COLUMN finished_at INTEGER
    GENERATED ALWAYS AS (CASE WHEN status IN ('COMPLETED', 'FAILED', 'CANCELED') THEN updated_at END) VIRTUAL;
CREATE INDEX runs_finished ON runs (finished_at, run_id) WHERE finished_at IS NOT NULL;
