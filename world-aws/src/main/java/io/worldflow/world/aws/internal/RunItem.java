package io.worldflow.world.aws.internal;

import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.spi.AppendResult;
import io.worldflow.spi.EventCodec;
import io.worldflow.spi.NewRun;
import io.worldflow.spi.SearchValues;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongFunction;

import static io.worldflow.world.aws.internal.Attrs.b;
import static io.worldflow.world.aws.internal.Attrs.instant;
import static io.worldflow.world.aws.internal.Attrs.micros;
import static io.worldflow.world.aws.internal.Attrs.n;
import static io.worldflow.world.aws.internal.Attrs.num;
import static io.worldflow.world.aws.internal.Attrs.s;
import static io.worldflow.world.aws.internal.Attrs.str;

/**
 * A run's item in the runs table: its projection ({@link RunInfo}; its search attributes as {@link SearchIndex} keeps
 * them), its turn ({@link TurnState}), its signal counter and the ids of signals consumed but not yet cleaned up.
 * Input, output and error larger than {@value #INLINE_BYTES} bytes stay only in the event log (the item holds the seq
 * of their event), so the item stays far below DynamoDB's 400 KB limit.
 */
final class RunItem {

    static final int INLINE_BYTES = 32 * 1024;

    static final String ID = "id";
    static final String WORKFLOW = "wf";
    static final String STATUS = "st";
    static final String QUEUE = "q";
    static final String PRIORITY = "prio";
    static final String CREATED = "cAt";
    static final String UPDATED = "uAt";
    static final String AVAILABLE_AT = "aAt";
    static final String DEADLINE = "dl";
    static final String LENGTH = "len";
    /**
     * The run's head: the link of its last record in the hash chain ({@link EventPages#LINK}), binary. Absent on runs
     * whose records were all written before the world kept links.
     */
    static final String HEAD = "hd";

    static final String CREATED_KEY = "ck";
    static final String ALL = "all";
    static final String ALL_VALUE = "run";
    static final String INPUT = "in";
    static final String INPUT_TYPE = "inT";
    static final String INPUT_REF = "inRef";
    static final String OUTPUT = "out";
    static final String OUTPUT_TYPE = "outT";
    static final String OUTPUT_REF = "outRef";
    static final String ERROR = "err";
    static final String ERROR_REF = "errRef";
    static final String CANCEL_REASON = "crR";
    static final String CANCEL_AT = "crAt";
    /** Present (1) when the cancellation asks for the run to be terminated. */
    static final String CANCEL_TERMINATE = "crT";
    /** Who asked for the cancellation: the first asker, or the one who raised it to a termination. */
    static final String CANCEL_ACTOR = "crW";

    static final String HELD = "held";
    /** When the hold began (microseconds); kept while it lasts. */
    static final String HELD_SINCE = "hAt";
    /** Present only while the run is held: the hash key of the sparse index of held runs. */
    static final String HELD_KEY = "hk";

    static final String HELD_KEY_VALUE = "held";
    /**
     * The shard the run's search items were written in ({@link Shards#of} when it was created), kept so that they are
     * found to be deleted after the number of shards grew; absent for shard 0.
     */
    static final String SHARD = "sh";
    /**
     * The run that started this one as a child; present only on child runs, so it is also the hash key of the
     * sparse index of a parent's children.
     */
    static final String PARENT = "par";
    /** The run this one continues ({@link NewRun#continuedFrom}), on a successor only; retention goes back by it. */
    static final String CONTINUED_FROM = "cFrom";
    /**
     * The successor this run handed over to as it ended ({@link io.worldflow.spi.Append#carrySignalsTo}), on a run that
     * continued as new only; retention keeps the run while that one is there.
     */
    static final String SUCCESSOR = "cTo";
    /** The run's ordering key within its queue ({@link NewRun#key}), when it has one; listed with its waiting turn. */
    static final String ORDER_KEY = "oKey";
    /**
     * The run created with the same ordering key in the same waiting queue just before this one, when there was one and
     * this run waited to be admitted ({@link KeyOrder}).
     */
    static final String PREV = "oPrev";

    static final String SIGNAL_SEQ = "sigSeq";
    static final String CONSUMED = "cs";
    /** Present while signals carried to this run from the run it names are not all copied ({@link SignalCarry}). */
    static final String CARRY_FROM = "inFrom";
    /** The carried run's signal i, up to {@link #CARRY_UP_TO}, is this run's signal {@code inBase + i}. */
    static final String CARRY_BASE = "inBase";
    /** The carried run's signal counter when its end was written. */
    static final String CARRY_UP_TO = "inUpTo";
    /** The carried run's signal i past {@link #CARRY_UP_TO} is this run's {@code inExtra + i - inUpTo}. */
    static final String CARRY_EXTRA = "inExtra";

    private RunItem() {}

    static Map<String, AttributeValue> key(String runId) {
        return Map.of(ID, s(runId));
    }

    /**
     * The item of a new run: PENDING, its log holding WorkflowStarted whose link is {@code head}, its first turn due
     * at availableAt in the queue it goes to ({@link NewRun#turnQueue}: its own, or the one it waits in to be
     * admitted).
     */
    static Map<String, AttributeValue> created(NewRun run, byte[] head, Shards shards) {
        Map<String, AttributeValue> item = new HashMap<>();
        long created = micros(run.createdAt());
        item.put(ID, s(run.runId()));
        item.put(WORKFLOW, s(shards.key(run.workflow(), run.runId())));
        item.put(STATUS, status(RunStatus.PENDING, run.runId(), shards));
        item.put(QUEUE, s(run.queue()));
        item.put(PRIORITY, n(run.priority()));
        item.put(CREATED, n(created));
        item.put(UPDATED, n(created));
        item.put(AVAILABLE_AT, n(micros(run.availableAt())));
        if (run.deadline() != null) {
            item.put(DEADLINE, n(micros(run.deadline())));
        }
        item.put(LENGTH, n(1));
        item.put(HEAD, b(head));
        item.put(CREATED_KEY, s(Attrs.timeKey(created, run.runId())));
        item.put(ALL, s(shards.key(ALL_VALUE, run.runId())));
        int shard = shards.of(run.runId());
        if (shard != 0) {
            item.put(SHARD, n(shard));
        }
        if (run.parent() != null) {
            item.put(PARENT, s(run.parent()));
        }
        if (run.continuedFrom() != null) {
            item.put(CONTINUED_FROM, s(run.continuedFrom()));
        }
        if (run.key() != null) {
            item.put(ORDER_KEY, s(run.key()));
        }
        if (fitsInline(run.input().json())) {
            item.put(INPUT, s(run.input().json()));
            if (run.input().type() != null) {
                item.put(INPUT_TYPE, s(run.input().type()));
            }
        } else {
            item.put(INPUT_REF, n(0));
        }
        AttributeValue attributes = SearchIndex.itemValue(SearchValues.encode(run.searchAttributes()));
        if (attributes != null) {
            item.put(SearchIndex.ATTRIBUTES, attributes);
        }
        item.put(SIGNAL_SEQ, n(0));
        firstTurn(run, micros(run.availableAt())).putOn(item, run.runId(), shards);
        return item;
    }

    /** The first turn of a new run, due at {@code dueMicros}. */
    static TurnState firstTurn(NewRun run, long dueMicros) {
        return TurnState.first(run.turnQueue(), run.queue(), run.priority(), dueMicros);
    }

    static boolean fitsInline(String json) {
        return json.length() <= INLINE_BYTES / 3 || json.getBytes(StandardCharsets.UTF_8).length <= INLINE_BYTES;
    }

    static RunStatus status(Map<String, AttributeValue> item) {
        return RunStatus.valueOf(Shards.plain(str(item, STATUS)));
    }

    /** The value of {@value #STATUS} for a run in {@code status}: its key in {@code byStatus}. */
    static AttributeValue status(RunStatus status, String runId, Shards shards) {
        return s(shards.key(status.name(), runId));
    }

    /** The run's workflow (its item's {@value #WORKFLOW} is its key in {@code byWorkflow}). */
    static String workflow(Map<String, AttributeValue> item) {
        return Shards.plain(str(item, WORKFLOW));
    }

    /**
     * The condition that the run has finished, or with {@code not}, that it has not: its status, in whichever shard it
     * was written, begins with a terminal one (no status begins with another).
     */
    static void finished(Update u, boolean not) {
        String any =
                "begins_with(#" + STATUS + ", ?) OR begins_with(#" + STATUS + ", ?) OR begins_with(#" + STATUS + ", ?)";
        // a condition is put in parentheses when joined to others; DynamoDB refuses a pair of them around it
        u.when(
                not ? "NOT (" + any + ")" : any,
                s(RunStatus.COMPLETED.name()),
                s(RunStatus.FAILED.name()),
                s(RunStatus.CANCELED.name()));
    }

    static long length(Map<String, AttributeValue> item) {
        return num(item, LENGTH, 0);
    }

    /** The run's head as read, or null when it has none. */
    static byte[] head(Map<String, AttributeValue> item) {
        AttributeValue v = item.get(HEAD);
        return v == null || v.b() == null ? null : v.b().asByteArray();
    }

    /**
     * Sets the run's head to {@code link}, the link of the record written with {@code u}, conditioned on the head being
     * still {@code head}, the one the link chains over: a record is never linked over a head that moved meanwhile.
     */
    static void chain(Update u, byte[] head, byte[] link) {
        u.set(HEAD, b(link));
        if (head == null) {
            u.when("attribute_not_exists(#" + HEAD + ")");
        } else {
            u.when("#" + HEAD + " = ?", b(head));
        }
    }

    /**
     * Why an append expecting the log at {@code expectedSeq} is refused by the run's item as read (null: the run is
     * gone): missing, or a conflict with the length it has; null when the append may go ahead.
     */
    static AppendResult refusal(Map<String, AttributeValue> item, long expectedSeq) {
        if (item == null) {
            return AppendResult.missing();
        }
        long length = length(item);
        return length == expectedSeq ? null : new AppendResult(false, length, cancelRequested(item));
    }

    static boolean cancelRequested(Map<String, AttributeValue> item) {
        return item.containsKey(CANCEL_AT);
    }

    /**
     * The run's projection.
     *
     * @param payloadAt loads the payload kept in the event at a seq (for values too large for the item)
     */
    static RunInfo info(Map<String, AttributeValue> item, EventCodec codec, LongFunction<Object> payloadAt) {
        String runId = str(item, ID);
        Payload input = payload(item, INPUT, INPUT_TYPE, INPUT_REF, payloadAt);
        Payload output = payload(item, OUTPUT, OUTPUT_TYPE, OUTPUT_REF, payloadAt);
        ErrorInfo error = null;
        if (item.containsKey(ERROR)) {
            error = codec.decodeError(str(item, ERROR));
        } else if (item.containsKey(ERROR_REF)) {
            error = (ErrorInfo) payloadAt.apply(num(item, ERROR_REF));
        }
        RunInfo.CancelRequest cancel = item.containsKey(CANCEL_AT)
                ? new RunInfo.CancelRequest(
                        str(item, CANCEL_REASON),
                        instant(item, CANCEL_AT),
                        item.containsKey(CANCEL_TERMINATE),
                        str(item, CANCEL_ACTOR))
                : null;
        ErrorInfo held = item.containsKey(HELD) ? codec.decodeError(str(item, HELD)) : null;
        Instant deadline = instant(item, DEADLINE);
        return new RunInfo(
                runId,
                workflow(item),
                status(item),
                input,
                output,
                error,
                instant(item, CREATED),
                instant(item, UPDATED),
                instant(item, AVAILABLE_AT),
                deadline,
                str(item, QUEUE),
                (int) num(item, PRIORITY, 0),
                length(item),
                cancel,
                held,
                held == null ? null : instant(item, HELD_SINCE),
                str(item, PARENT),
                SearchIndex.of(item),
                str(item, ORDER_KEY));
    }

    private static Payload payload(
            Map<String, AttributeValue> item, String json, String type, String ref, LongFunction<Object> payloadAt) {
        if (item.containsKey(json)) {
            return new Payload(str(item, json), str(item, type));
        }
        if (item.containsKey(ref)) {
            return (Payload) payloadAt.apply(num(item, ref));
        }
        return null;
    }
}
