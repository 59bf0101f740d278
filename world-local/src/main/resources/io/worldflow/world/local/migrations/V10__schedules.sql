-- Worldflow local world, schema version 10: schedules. The world keeps each one's text as the runtime wrote it, the
-- next instant a worker must look at it (null while paused or ended) and a version that each write compares and sets.
-- Only schedules with a wake time are in the index that finds the due ones.
CREATE TABLE schedules (
    id          TEXT    NOT NULL PRIMARY KEY,
    body        TEXT    NOT NULL,
    wake_at     INTEGER,
    version     INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
CREATE INDEX schedules_due ON schedules (wake_at, id) WHERE wake_at IS NOT NULL;
