-- Worldflow local world, schema version 15: search attributes. A run's current attributes are kept in its row (a JSON
-- object of name to stored value, null for none) for reads, and one row each in run_attributes for searches: by name
-- and value, newest first, which is why the row repeats the run's creation time. They go with their run when it is
-- purged.
ALTER TABLE runs ADD COLUMN search_attributes TEXT;
CREATE TABLE run_attributes (
    run_id     TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    value      TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (run_id, name)
) WITHOUT ROWID;
CREATE INDEX run_attributes_search ON run_attributes (name, value, created_at DESC, run_id DESC);
