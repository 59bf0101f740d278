-- Worldflow Postgres world, schema version 10: whether a cancellation asks for the run to be terminated, ended without
-- running any more of its code, rather than told at its next primitive. Sticky once set. A column with a constant
-- default is added without rewriting the table.
ALTER TABLE ${schema}.${prefix}runs ADD COLUMN cancel_terminate boolean NOT NULL DEFAULT false;
