-- Worldflow local world, schema version 7: the run that started a run as its child, and a run's children found
-- through an index that holds child runs only.
ALTER TABLE runs ADD COLUMN parent_run_id TEXT;
CREATE INDEX runs_by_parent ON runs (parent_run_id, created_at, run_id) WHERE parent_run_id IS NOT NULL;
