-- Worldflow Postgres world, schema version 14: the hash chain over each run's log. Each log row keeps its link (a hash
-- over the previous link and the row's events as stored), the run its first record's link (that record is kept in
-- the run's row) and its last link, its head. Null for rows and runs written before: their chain begins with the first
-- record written after this version. A column without a default is added without rewriting the table.
ALTER TABLE ${schema}.${prefix}event_log ADD COLUMN link bytea;
ALTER TABLE ${schema}.${prefix}runs ADD COLUMN head bytea;
ALTER TABLE ${schema}.${prefix}runs ADD COLUMN started_link bytea;
