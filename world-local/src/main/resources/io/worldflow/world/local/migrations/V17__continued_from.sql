-- Worldflow local world, schema version 17: the run a run continues (continue-as-new) in its row, so that retention
-- deletes a chain newest first and never a run whose successor is still kept. Set once, when the run is created.
ALTER TABLE runs ADD COLUMN continued_from TEXT;
-- Successors created before this version, from their first event; a successor's id always holds a '~'.
UPDATE runs
SET continued_from = (SELECT json_extract(l.events, '$[0].continuedFrom') FROM event_log l
                      WHERE l.run_id = runs.run_id AND l.seq = 0)
WHERE run_id LIKE '%~%';
CREATE INDEX runs_continued_from ON runs (continued_from) WHERE continued_from IS NOT NULL;
