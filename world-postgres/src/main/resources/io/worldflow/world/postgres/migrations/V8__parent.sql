-- Worldflow Postgres world, schema version 8: the run that started a run as its child, and a run's children found
-- through an index that holds child runs only.

-- Set once, when the run is created: no append changes it, so the appends' updates stay HOT.
ALTER TABLE ${schema}.${prefix}runs ADD COLUMN parent_run_id text;
CREATE INDEX ${prefix}runs_by_parent ON ${schema}.${prefix}runs (parent_run_id, created_at, run_id)
    WHERE parent_run_id IS NOT NULL;
