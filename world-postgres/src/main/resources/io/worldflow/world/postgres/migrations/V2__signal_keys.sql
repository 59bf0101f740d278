-- Worldflow Postgres world, schema version 2.

-- Idempotency keys of signals: a run takes at most one signal per key, even after it was consumed.
CREATE TABLE ${schema}.${prefix}signal_keys (
    run_id    text COLLATE "C" NOT NULL,
    key       text   NOT NULL,
    signal_id bigint NOT NULL,
    PRIMARY KEY (run_id, key)
);
