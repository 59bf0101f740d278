-- Worldflow Postgres world, schema version 18: the run a run continues (continue-as-new) in its row, so that retention
-- deletes a chain newest first and never a run whose successor is still kept. Set once, when the run is created: no
-- append changes it, so the appends' updates stay HOT.
ALTER TABLE ${schema}.${prefix}runs ADD COLUMN continued_from text;
-- Successors created before this version, from their first event (in the row since version 6, in the log before);
-- a successor's id always holds a '~'.
UPDATE ${schema}.${prefix}runs r
SET continued_from = f.continued_from
FROM (SELECT run_id,
             CAST(COALESCE(started, (SELECT l.events FROM ${schema}.${prefix}event_log l
                                     WHERE l.run_id = x.run_id AND l.seq = 0)) AS jsonb) -> 0 ->> 'continuedFrom'
                 AS continued_from
      FROM ${schema}.${prefix}runs x
      WHERE run_id LIKE '%~%') f
WHERE r.run_id = f.run_id AND f.continued_from IS NOT NULL;
CREATE INDEX ${prefix}runs_continued_from ON ${schema}.${prefix}runs (continued_from)
    WHERE continued_from IS NOT NULL;
