-- Worldflow Postgres world, schema version 1.
-- ${schema} and ${prefix} are replaced when the script is applied (or printed for a DBA).
-- Instants are epoch microseconds (bigint), written with the worker's clock, never the server's.
-- Ids, names and statuses use the "C" collation: byte order, exact comparison, prefix ranges on plain btrees.
-- JSON columns are text, so payloads read back character for character.

-- The projection of each run, kept next to its event log. Updated by every append (status, log length):
-- room on each page lets most of those updates stay HOT.
CREATE TABLE ${schema}.${prefix}runs (
    run_id              text COLLATE "C" NOT NULL PRIMARY KEY,
    workflow            text COLLATE "C" NOT NULL,
    status              text COLLATE "C" NOT NULL,
    input_json          text    NOT NULL,
    input_type          text,
    output_json         text,
    output_type         text,
    error               text,
    created_at          bigint  NOT NULL,
    updated_at          bigint  NOT NULL,
    available_at        bigint  NOT NULL,
    deadline            bigint,
    queue               text COLLATE "C" NOT NULL,
    priority            integer NOT NULL,
    log_length          bigint  NOT NULL,
    cancel_requested    boolean NOT NULL DEFAULT false,
    cancel_reason       text,
    cancel_requested_at bigint,
    held                text
) WITH (fillfactor = 80);

-- list(): newest first (created_at DESC, run_id DESC), alone or within one status or one workflow; the
-- cursor is a row comparison on the same two columns. An id prefix uses the primary key (C collation).
CREATE INDEX ${prefix}runs_by_created ON ${schema}.${prefix}runs (created_at DESC, run_id DESC);
CREATE INDEX ${prefix}runs_by_status ON ${schema}.${prefix}runs (status, created_at DESC, run_id DESC);
CREATE INDEX ${prefix}runs_by_workflow ON ${schema}.${prefix}runs (workflow, created_at DESC, run_id DESC);

-- The append-only log: seq 0, 1, 2, ... per run, read in order by the primary key.
CREATE TABLE ${schema}.${prefix}events (
    run_id text COLLATE "C" NOT NULL,
    seq    bigint NOT NULL,
    type   text   NOT NULL,
    at     bigint NOT NULL,
    json   text   NOT NULL,
    PRIMARY KEY (run_id, seq)
);

-- At most one pending turn per run. A leased row has lease_token, lease_owner and lease_expires set;
-- requested_at holds a turn asked for while the row was leased.
CREATE TABLE ${schema}.${prefix}tasks (
    run_id        text COLLATE "C" NOT NULL PRIMARY KEY,
    queue         text COLLATE "C" NOT NULL,
    priority      integer NOT NULL,
    available_at  bigint  NOT NULL,
    lease_token   text,
    lease_owner   text,
    lease_expires bigint,
    deliveries    integer NOT NULL DEFAULT 0,
    requested_at  bigint
) WITH (fillfactor = 70);

-- nextDue(), and lease() when few turns are due: a range scan of what is due, however many sleep.
CREATE INDEX ${prefix}tasks_due ON ${schema}.${prefix}tasks (queue, available_at) WHERE lease_token IS NULL;
-- lease() when many turns are due (a backlog): read in leasing order, stop after the batch.
CREATE INDEX ${prefix}tasks_next ON ${schema}.${prefix}tasks (queue, priority DESC, available_at, run_id)
    WHERE lease_token IS NULL;
-- lease() of lapsed leases and nextDue() over leased turns (few: one per turn in flight).
CREATE INDEX ${prefix}tasks_leased ON ${schema}.${prefix}tasks (queue, lease_expires) WHERE lease_token IS NOT NULL;

-- Signals delivered and not yet consumed; id gives arrival order.
CREATE TABLE ${schema}.${prefix}signals (
    id           bigserial PRIMARY KEY,
    run_id       text COLLATE "C" NOT NULL,
    name         text   NOT NULL,
    payload_json text   NOT NULL,
    payload_type text,
    sent_at      bigint NOT NULL
);
CREATE INDEX ${prefix}signals_by_run ON ${schema}.${prefix}signals (run_id, id);
