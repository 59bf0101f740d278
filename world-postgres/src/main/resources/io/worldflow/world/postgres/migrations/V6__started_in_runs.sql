-- Worldflow Postgres world, schema version 6.

-- A run's first record, its WorkflowStarted event (seq 0) in the form of an event_log row's events, is kept in its
-- runs row: creating a run then writes no event_log row and no entry in its primary key. The runs row is written
-- at the same moment and holds the same run; its updates leave this last column as it was, so they log none of it.
-- Runs created before this version keep that record as their event_log row at seq 0; a run has it in one place only.
ALTER TABLE ${schema}.${prefix}runs ADD COLUMN started text;
