-- Worldflow local world, schema version 14: signal URLs revoked before they expired, by the id of their token, with
-- when and by whom. They go with their run when it is purged.
CREATE TABLE revoked_urls (
    run_id     TEXT    NOT NULL,
    token_id   TEXT    NOT NULL,
    revoked_at INTEGER NOT NULL,
    actor      TEXT,
    PRIMARY KEY (run_id, token_id)
) WITHOUT ROWID;
