-- Worldflow local world, schema version 2.

-- Idempotency keys of signals: a run takes at most one signal per key, even after it was consumed.
CREATE TABLE signal_keys (
    run_id    TEXT    NOT NULL,
    key       TEXT    NOT NULL,
    signal_id INTEGER NOT NULL,
    PRIMARY KEY (run_id, key)
) WITHOUT ROWID;
