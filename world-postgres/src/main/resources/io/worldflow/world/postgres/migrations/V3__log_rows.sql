-- Worldflow Postgres world, schema version 3.

-- The append-only log, one row per append: the events it added (seq .. last_seq) as one JSON array, in
-- order. A step's scheduling, start and outcome, written together, cost one tuple and one index entry.
CREATE TABLE ${schema}.${prefix}event_log (
    run_id   text COLLATE "C" NOT NULL,
    seq      bigint NOT NULL,
    last_seq bigint NOT NULL,
    events   text   NOT NULL,
    PRIMARY KEY (run_id, seq)
);

-- A log written by version 2 (a row per event) becomes a row per event here.
INSERT INTO ${schema}.${prefix}event_log (run_id, seq, last_seq, events)
    SELECT run_id, seq, seq, '[' || json || ']' FROM ${schema}.${prefix}events;

DROP TABLE ${schema}.${prefix}events;
