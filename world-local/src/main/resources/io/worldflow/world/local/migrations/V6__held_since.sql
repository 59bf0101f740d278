-- Worldflow local world, schema version 6: when a run's hold began, and held runs found without a scan.
-- A hold recorded before this version counts from the run's last change, the best time the file holds.
ALTER TABLE runs ADD COLUMN held_since INTEGER;
UPDATE runs SET held_since = updated_at WHERE held IS NOT NULL;
CREATE INDEX runs_held ON runs (created_at, run_id) WHERE held IS NOT NULL;
