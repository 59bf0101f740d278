package io.worldflow.world.postgres;

import org.jooq.Field;
import org.jooq.Name;
import org.jooq.Record;
import org.jooq.SelectField;
import org.jooq.Table;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

/**
 * The world's tables and columns as jOOQ names, qualified by the configured schema and table prefix
 * (see {@code migrations/V1__init.sql}). No code generation: the schema is small and written by hand.
 */
final class Tables {

    final Runs runs;
    final Log log;
    final Tasks tasks;
    final Signals signals;
    final SignalKeys signalKeys;
    final Name schemaVersion;

    Tables(String schema, String prefix) {
        this.runs = new Runs(name(schema, prefix + "runs"));
        this.log = new Log(name(schema, prefix + "event_log"));
        this.tasks = new Tasks(name(schema, prefix + "tasks"));
        this.signals = new Signals(name(schema, prefix + "signals"));
        this.signalKeys = new SignalKeys(name(schema, prefix + "signal_keys"));
        this.schemaVersion = name(schema, prefix + "schema_version");
    }

    /** The run projection. */
    static final class Runs {
        final Table<Record> table;
        final Field<String> runId;
        final Field<String> workflow;
        final Field<String> status;
        /** The status of a resting run (sleeping, waiting, ended), null while pending or running: generated, indexed. */
        final Field<String> resting;
        final Field<String> inputJson;
        final Field<String> inputType;
        final Field<String> outputJson;
        final Field<String> outputType;
        final Field<String> error;
        final Field<Long> createdAt;
        final Field<Long> updatedAt;
        final Field<Long> availableAt;
        final Field<Long> deadline;
        final Field<String> queue;
        final Field<Integer> priority;
        final Field<Long> logLength;
        final Field<Boolean> cancelRequested;
        final Field<String> cancelReason;
        final Field<Long> cancelRequestedAt;
        final Field<String> held;
        /** When the run's hold began (microseconds), null while it is not held. */
        final Field<Long> heldSince;
        /**
         * The run's first log record (its {@code WorkflowStarted}, seq 0), as {@link Log#events} would hold it; null
         * for a run created before schema version 6, whose first record is its {@code event_log} row at seq 0.
         */
        final Field<String> started;
        /** The columns the shared {@code RunRows} reads, in its order. */
        final SelectField<?>[] columns;

        private Runs(Name t) {
            table = table(t);
            runId = field(t.append("run_id"), String.class);
            workflow = field(t.append("workflow"), String.class);
            status = field(t.append("status"), String.class);
            resting = field(t.append("resting"), String.class);
            inputJson = field(t.append("input_json"), String.class);
            inputType = field(t.append("input_type"), String.class);
            outputJson = field(t.append("output_json"), String.class);
            outputType = field(t.append("output_type"), String.class);
            error = field(t.append("error"), String.class);
            createdAt = field(t.append("created_at"), Long.class);
            updatedAt = field(t.append("updated_at"), Long.class);
            availableAt = field(t.append("available_at"), Long.class);
            deadline = field(t.append("deadline"), Long.class);
            queue = field(t.append("queue"), String.class);
            priority = field(t.append("priority"), Integer.class);
            logLength = field(t.append("log_length"), Long.class);
            cancelRequested = field(t.append("cancel_requested"), Boolean.class);
            cancelReason = field(t.append("cancel_reason"), String.class);
            cancelRequestedAt = field(t.append("cancel_requested_at"), Long.class);
            held = field(t.append("held"), String.class);
            heldSince = field(t.append("held_since"), Long.class);
            started = field(t.append("started"), String.class);
            columns = new SelectField<?>[]{runId, workflow, status, inputJson, inputType, outputJson, outputType, error,
                    createdAt, updatedAt, availableAt, deadline, queue, priority, logLength, cancelRequested, held,
                    cancelReason, cancelRequestedAt, heldSince};
        }
    }

    /** The event logs: a row per append, its events {@code seq .. lastSeq} as one JSON array. */
    static final class Log {
        final Table<Record> table;
        final Field<String> runId;
        final Field<Long> seq;
        final Field<Long> lastSeq;
        final Field<String> events;

        private Log(Name t) {
            table = table(t);
            runId = field(t.append("run_id"), String.class);
            seq = field(t.append("seq"), Long.class);
            lastSeq = field(t.append("last_seq"), Long.class);
            events = field(t.append("events"), String.class);
        }
    }

    /** One pending (or leased) turn per run. */
    static final class Tasks {
        final Table<Record> table;
        final Field<String> runId;
        final Field<String> queue;
        final Field<Integer> priority;
        final Field<Long> availableAt;
        final Field<String> leaseToken;
        final Field<String> leaseOwner;
        final Field<Long> leaseExpires;
        final Field<Integer> deliveries;
        final Field<Long> requestedAt;

        private Tasks(Name t) {
            table = table(t);
            runId = field(t.append("run_id"), String.class);
            queue = field(t.append("queue"), String.class);
            priority = field(t.append("priority"), Integer.class);
            availableAt = field(t.append("available_at"), Long.class);
            leaseToken = field(t.append("lease_token"), String.class);
            leaseOwner = field(t.append("lease_owner"), String.class);
            leaseExpires = field(t.append("lease_expires"), Long.class);
            deliveries = field(t.append("deliveries"), Integer.class);
            requestedAt = field(t.append("requested_at"), Long.class);
        }
    }

    /** Signals not yet consumed. */
    static final class Signals {
        final Table<Record> table;
        final Field<Long> id;
        final Field<String> runId;
        final Field<String> name;
        final Field<String> payloadJson;
        final Field<String> payloadType;
        final Field<Long> sentAt;

        private Signals(Name t) {
            table = table(t);
            id = field(t.append("id"), Long.class);
            runId = field(t.append("run_id"), String.class);
            name = field(t.append("name"), String.class);
            payloadJson = field(t.append("payload_json"), String.class);
            payloadType = field(t.append("payload_type"), String.class);
            sentAt = field(t.append("sent_at"), Long.class);
        }
    }

    /** Idempotency keys of signals, kept after the signal is consumed. */
    static final class SignalKeys {
        final Table<Record> table;
        final Field<String> runId;
        final Field<String> key;
        final Field<Long> signalId;

        private SignalKeys(Name t) {
            table = table(t);
            runId = field(t.append("run_id"), String.class);
            key = field(t.append("key"), String.class);
            signalId = field(t.append("signal_id"), Long.class);
        }
    }
}
