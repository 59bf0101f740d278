-- Worldflow local world, schema version 16: a run's ordering key in its row, so that it is shown with the run (its
-- turn keeps it too, but only while the run has one). Runs created before this version show none.
ALTER TABLE runs ADD COLUMN order_key TEXT;
