-- Worldflow Postgres world, schema version 16: search attributes. A run's current attributes are kept in its row (a
-- JSON object of name to stored value, null for none) for reads, and one row each in run_attributes for searches: by
-- name and value, newest first, which is why the row repeats the run's creation time. They go with their run when it
-- is purged. A column without a default is added without rewriting the table.
ALTER TABLE ${schema}.${prefix}runs ADD COLUMN search_attributes text;
CREATE TABLE ${schema}.${prefix}run_attributes (
    run_id     text COLLATE "C" NOT NULL,
    name       text COLLATE "C" NOT NULL,
    value      text COLLATE "C" NOT NULL,
    created_at bigint NOT NULL,
    PRIMARY KEY (run_id, name)
);
CREATE INDEX ${prefix}run_attributes_search
    ON ${schema}.${prefix}run_attributes (name, value, created_at DESC, run_id DESC);
