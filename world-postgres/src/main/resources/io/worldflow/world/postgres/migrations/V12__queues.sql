-- Worldflow Postgres world, schema version 12: queues. The world keeps each queue's text as the runtime wrote it (its
-- limits and who holds its slots) and a version that each write compares and sets. A turn keeps its run's ordering
-- key, so that what waits in a queue is listed with it.
CREATE TABLE ${schema}.${prefix}queues (
    id          text COLLATE "C" NOT NULL PRIMARY KEY,
    body        text    NOT NULL,
    version     bigint  NOT NULL,
    updated_at  bigint  NOT NULL
);
ALTER TABLE ${schema}.${prefix}tasks ADD COLUMN flow_key text;
