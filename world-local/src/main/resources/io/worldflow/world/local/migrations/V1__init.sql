-- Worldflow local world, schema version 1.
-- Instants are epoch microseconds (INTEGER). JSON columns hold text written by the event codec.

-- The projection of each run, kept next to its event log.
CREATE TABLE runs (
    run_id              TEXT    NOT NULL PRIMARY KEY,
    workflow            TEXT    NOT NULL,
    status              TEXT    NOT NULL,
    input_json          TEXT    NOT NULL,
    input_type          TEXT,
    output_json         TEXT,
    output_type         TEXT,
    error               TEXT,
    created_at          INTEGER NOT NULL,
    updated_at          INTEGER NOT NULL,
    available_at        INTEGER NOT NULL,
    deadline            INTEGER,
    queue               TEXT    NOT NULL,
    priority            INTEGER NOT NULL,
    log_length          INTEGER NOT NULL,
    cancel_requested    INTEGER NOT NULL DEFAULT 0,
    cancel_reason       TEXT,
    cancel_requested_at INTEGER,
    held                TEXT
);

-- list(): newest first, optionally within one status or one workflow.
CREATE INDEX runs_by_created ON runs (created_at, run_id);
CREATE INDEX runs_by_status ON runs (status, created_at, run_id);
CREATE INDEX runs_by_workflow ON runs (workflow, created_at, run_id);

-- The append-only log: seq 0, 1, 2, ... per run, stored together for read().
CREATE TABLE events (
    run_id TEXT    NOT NULL,
    seq    INTEGER NOT NULL,
    type   TEXT    NOT NULL,
    at     INTEGER NOT NULL,
    json   TEXT    NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

-- At most one pending turn per run. A leased row has lease_token, lease_owner and lease_expires set;
-- requested_at holds a turn asked for while the row was leased.
CREATE TABLE tasks (
    run_id        TEXT    NOT NULL PRIMARY KEY,
    queue         TEXT    NOT NULL,
    priority      INTEGER NOT NULL,
    available_at  INTEGER NOT NULL,
    lease_token   TEXT,
    lease_owner   TEXT,
    lease_expires INTEGER,
    deliveries    INTEGER NOT NULL DEFAULT 0,
    requested_at  INTEGER
) WITHOUT ROWID;

-- lease() and nextDue() over unleased or expired rows: covering, so no table lookups before the sort.
CREATE INDEX tasks_due ON tasks (queue, available_at, priority, lease_expires);
-- nextDue() over leased rows (few: one per turn in flight).
CREATE INDEX tasks_leased ON tasks (queue, lease_expires, available_at) WHERE lease_expires IS NOT NULL;

-- Signals delivered and not yet consumed; id gives arrival order.
CREATE TABLE signals (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id       TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    payload_json TEXT    NOT NULL,
    payload_type TEXT,
    sent_at      INTEGER NOT NULL
);
CREATE INDEX signals_by_run ON signals (run_id, id);
