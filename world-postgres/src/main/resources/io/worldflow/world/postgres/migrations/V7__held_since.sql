-- Worldflow Postgres world, schema version 7: when a run's hold began, and held runs found without a scan.

-- A hold keeps the time it began (microseconds since the epoch) until the run's next append ends it. A hold
-- recorded before this version counts from the run's last change, the best time the row holds.
ALTER TABLE ${schema}.${prefix}runs ADD COLUMN held_since bigint;
UPDATE ${schema}.${prefix}runs SET held_since = updated_at WHERE held IS NOT NULL;
-- Held runs are few and each waits for a deploy: a partial index lists and counts them. An append sets held to
-- NULL where it already is, an unchanged value, so the updates of runs that are not held stay HOT.
CREATE INDEX ${prefix}runs_held ON ${schema}.${prefix}runs (created_at, run_id) WHERE held IS NOT NULL;
