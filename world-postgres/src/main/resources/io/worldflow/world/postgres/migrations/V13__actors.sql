-- Worldflow Postgres world, schema version 13: who sent a signal and who asked to cancel a run, which the events that
-- record them carry into the run's log. Null for those stored before, and for those no one outside a run caused. A
-- column without a default is added without rewriting the table.
ALTER TABLE ${schema}.${prefix}signals ADD COLUMN actor text;
ALTER TABLE ${schema}.${prefix}runs ADD COLUMN cancel_actor text;
