-- Worldflow local world, schema version 3.

-- lease(): unleased turns in leasing order (highest priority first, then earliest due), so that a lease reads
-- the few turns it takes per priority level instead of sorting every due turn.
CREATE INDEX tasks_fresh ON tasks (queue, priority, available_at, run_id) WHERE lease_expires IS NULL;
