-- Worldflow local world, schema version 12: who sent a signal and who asked to cancel a run, which the events that
-- record them carry into the run's log. Null for those stored before, and for those no one outside a run caused.
ALTER TABLE signals ADD COLUMN actor TEXT;
ALTER TABLE runs ADD COLUMN cancel_actor TEXT;
