-- Worldflow Postgres world, schema version 11: schedules. The world keeps each one's text as the runtime wrote it, the
-- next instant a worker must look at it (null while paused or ended) and a version that each write compares and sets.
-- Only schedules with a wake time are in the index that finds the due ones.
CREATE TABLE ${schema}.${prefix}schedules (
    id          text COLLATE "C" NOT NULL PRIMARY KEY,
    body        text    NOT NULL,
    wake_at     bigint,
    version     bigint  NOT NULL,
    updated_at  bigint  NOT NULL
);
CREATE INDEX ${prefix}schedules_due ON ${schema}.${prefix}schedules (wake_at, id) WHERE wake_at IS NOT NULL;
