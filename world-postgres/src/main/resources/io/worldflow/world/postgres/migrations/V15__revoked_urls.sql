-- Worldflow Postgres world, schema version 15: signal URLs revoked before they expired, by the id of their token, with
-- when and by whom. They go with their run when it is purged.
CREATE TABLE ${schema}.${prefix}revoked_urls (
    run_id     text COLLATE "C" NOT NULL,
    token_id   text   NOT NULL,
    revoked_at bigint NOT NULL,
    actor      text,
    PRIMARY KEY (run_id, token_id)
);
