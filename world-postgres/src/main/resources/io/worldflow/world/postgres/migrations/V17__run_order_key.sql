-- Worldflow Postgres world, schema version 17: a run's ordering key in its row, so that it is shown with the run (its
-- turn keeps it too, but only while the run has one). Runs created before this version show none. A column without a
-- default is added without rewriting the table.
ALTER TABLE ${schema}.${prefix}runs ADD COLUMN order_key text;
