-- Worldflow Postgres world, schema version 5.

-- No index holds a column that a lease changes (lease_token, lease_owner, lease_expires, deliveries,
-- requested_at), so leasing a turn and extending its lease are HOT updates: a new tuple on the same page and no
-- index entry at all, instead of an entry in the primary key and one in the index of leased turns. The indexes
-- hold every turn, leased or not. A leased turn was due when it was leased and stays at that due time until its
-- turn ends, so the turns in flight are among the first a read in due order meets: as many as the leases held,
-- which the lease statement and nextDue() step over.
DROP INDEX ${schema}.${prefix}tasks_due;
DROP INDEX ${schema}.${prefix}tasks_next;
DROP INDEX ${schema}.${prefix}tasks_leased;
-- nextDue(), and lease() when few turns are due: a range scan of what is due, however many sleep.
CREATE INDEX ${prefix}tasks_due ON ${schema}.${prefix}tasks (queue, available_at);
-- lease() when many turns are due (a backlog): read in leasing order, stop after the batch.
CREATE INDEX ${prefix}tasks_next ON ${schema}.${prefix}tasks (queue, priority DESC, available_at, run_id);
-- Room on each page for those new tuples: a turn's row is leased soon after it is written, and the rows around it
-- as well, before the versions they replace can be pruned.
ALTER TABLE ${schema}.${prefix}tasks SET (fillfactor = 40);
