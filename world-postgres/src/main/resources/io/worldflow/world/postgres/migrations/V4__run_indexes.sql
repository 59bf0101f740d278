-- Worldflow Postgres world, schema version 4.
-- From this version on, the JSON objects in event_log.events also leave out runId and seq, which the row holds
-- (run_id, and seq for the first of them); rows written before still carry them and read as they did.

-- Every run passes through PENDING and RUNNING, and its updates there (the first step, every step after it)
-- are the most frequent writes of all. While no index holds the status, those updates are HOT: a new tuple
-- on the same page and no index entry at all, instead of a new entry in every index of the table. The list
-- by status reads `resting` instead: the status of a run that rests (sleeping, waiting, or ended), null while
-- it is pending or running. Only a change to or from a resting status rewrites the indexes. Pending and
-- running runs, the work in flight, are one range of that index, told apart by `status`.
ALTER TABLE ${schema}.${prefix}runs ADD COLUMN resting text COLLATE "C"
    GENERATED ALWAYS AS (CASE WHEN status IN ('PENDING', 'RUNNING') THEN NULL ELSE status END) STORED;
-- Half of each new page is kept for those updates: a run is updated a few times in quick succession, before
-- its earlier versions can be pruned.
ALTER TABLE ${schema}.${prefix}runs SET (fillfactor = 50);
DROP INDEX ${schema}.${prefix}runs_by_status;
CREATE INDEX ${prefix}runs_by_resting ON ${schema}.${prefix}runs (resting, created_at, run_id);
-- Which workflows' runs are in flight or rest in which status: without it the planner takes a workflow and a
-- status as independent and may walk the newest-first index for a combination that has no run at all.
CREATE STATISTICS ${schema}.${prefix}runs_workflow_status (mcv) ON workflow, status, resting
    FROM ${schema}.${prefix}runs;

-- Ascending, read backwards for newest first: a new run's entry lands on the last page, where a split keeps
-- the full page full and writes little, rather than on the first, where each split halves a page.
DROP INDEX ${schema}.${prefix}runs_by_created;
CREATE INDEX ${prefix}runs_by_created ON ${schema}.${prefix}runs (created_at, run_id);
DROP INDEX ${schema}.${prefix}runs_by_workflow;
CREATE INDEX ${prefix}runs_by_workflow ON ${schema}.${prefix}runs (workflow, created_at, run_id);
