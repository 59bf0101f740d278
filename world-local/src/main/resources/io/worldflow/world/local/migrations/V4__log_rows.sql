-- Worldflow local world, schema version 4.

-- The append-only log, one row per append: the events it added (seq .. last_seq) as one JSON array, in
-- order, stored together for read(). A step's scheduling, start and outcome, written together, cost one row.
CREATE TABLE event_log (
    run_id   TEXT    NOT NULL,
    seq      INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    events   TEXT    NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

-- A log written by version 3 (a row per event) becomes a row per event here.
INSERT INTO event_log (run_id, seq, last_seq, events) SELECT run_id, seq, seq, '[' || json || ']' FROM events;

DROP TABLE events;
