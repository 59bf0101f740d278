-- Worldflow local world, schema version 9: whether a cancellation asks for the run to be terminated, ended without
-- running any more of its code (1), rather than told at its next primitive (0). Sticky once set.
ALTER TABLE runs ADD COLUMN cancel_terminate INTEGER NOT NULL DEFAULT 0;
