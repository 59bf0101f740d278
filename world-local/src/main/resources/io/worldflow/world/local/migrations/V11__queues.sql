-- Worldflow local world, schema version 11: queues. The world keeps each queue's text as the runtime wrote it (its
-- limits and who holds its slots) and a version that each write compares and sets. A turn keeps its run's ordering
-- key, so that what waits in a queue is listed with it.
CREATE TABLE queues (
    id          TEXT    NOT NULL PRIMARY KEY,
    body        TEXT    NOT NULL,
    version     INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
ALTER TABLE tasks ADD COLUMN flow_key TEXT;
