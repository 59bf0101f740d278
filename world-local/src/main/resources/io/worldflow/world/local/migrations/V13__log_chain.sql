-- Worldflow local world, schema version 13: the hash chain over each run's log. Each log row keeps its link (a hash
-- over the previous link and the row's events as stored) and the run keeps its last link, its head. Null for rows and
-- runs written before: their chain begins with the first row written after this version.
ALTER TABLE event_log ADD COLUMN link BLOB;
ALTER TABLE runs ADD COLUMN head BLOB;
