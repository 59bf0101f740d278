package io.worldflow.runtime.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.worldflow.ErrorInfo;
import io.worldflow.Payload;
import io.worldflow.RunInfo;
import io.worldflow.RunStatus;
import io.worldflow.SearchAttributes;
import io.worldflow.event.Event;
import io.worldflow.event.SearchAttributesUpdated;
import io.worldflow.event.WorkflowCanceled;
import io.worldflow.event.WorkflowCompleted;
import io.worldflow.event.WorkflowContinuedAsNew;
import io.worldflow.event.WorkflowFailed;
import io.worldflow.event.WorkflowStarted;
import io.worldflow.format.EventFormat;
import io.worldflow.spi.SearchValues;
import io.worldflow.spi.StoredLog;
import io.worldflow.spi.StoredRecord;

import java.util.List;
import java.util.Objects;

/**
 * Whether what a world serves of a run (its projection: workflow, status, input, output, error, search attributes) is
 * what the run's log says. The hash chain proves the log as written; the projection sits beside it, unchained, and every
 * reader (a handle's result, the dashboard, a search) is served from it, so an edit there must be found too. Only the
 * records that can decide it are decoded: the first (the start), the last (the end) and those that change search
 * attributes.
 */
public final class StoredState {

    /** Where the projection departs from the log: the seq of the event that says otherwise, and how. */
    public record Mismatch(long seq, String problem) {}

    private static final EventFormat FORMAT = new EventFormat();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ATTRIBUTES_CHANGED = SearchAttributesUpdated.class.getSimpleName();

    private StoredState() {}

    /** The first way {@code info} departs from {@code log}, read as one state of the run; null when it does not. */
    public static Mismatch check(StoredLog log, RunInfo info) {
        List<StoredRecord> records = log.records();
        if (records.isEmpty()) {
            return null; // nothing to hold it against; the chain's check reports a log without records
        }
        String runId = log.runId();
        StoredRecord head = records.getFirst();
        if (!(decode(runId, head).getFirst() instanceof WorkflowStarted started)) {
            return new Mismatch(head.seq(), "the log does not begin with WorkflowStarted");
        }
        if (!started.workflow().equals(info.workflow())) {
            return new Mismatch(
                    0,
                    "the run is stored as one of workflow '" + info.workflow() + "', but its log starts one of '"
                            + started.workflow() + "'");
        }
        if (!same(started.input(), info.input())) {
            return new Mismatch(0, "the run's stored input is not the one its WorkflowStarted event holds");
        }
        SearchAttributes attributes = SearchValues.apply(
                SearchAttributes.empty(), started.searchAttributes() == null ? List.of() : started.searchAttributes());
        long attributesAt = 0;
        for (StoredRecord r : records) {
            if (r.text().contains(ATTRIBUTES_CHANGED)) {
                for (Event e : decode(runId, r)) {
                    if (e instanceof SearchAttributesUpdated u) {
                        attributes = SearchValues.apply(attributes, u.attributes());
                        attributesAt = u.seq();
                    }
                }
            }
        }
        if (!attributes.equals(info.searchAttributes())) {
            return new Mismatch(
                    attributesAt,
                    "the run's stored search attributes "
                            + info.searchAttributes().asMap() + " are not the ones its log sets, "
                            + attributes.asMap());
        }
        return ending(records.getLast(), runId, info);
    }

    /** Whether the stored status, output and error are those the log's last event says. */
    private static Mismatch ending(StoredRecord tail, String runId, RunInfo info) {
        Event last = decode(runId, tail).getLast();
        String lastEvent = last.getClass().getSimpleName() + " (seq " + last.seq() + ")";
        RunStatus ended = switch (last) {
            case WorkflowCompleted c -> RunStatus.COMPLETED;
            case WorkflowContinuedAsNew c -> RunStatus.COMPLETED;
            case WorkflowFailed f -> RunStatus.FAILED;
            case WorkflowCanceled c -> RunStatus.CANCELED;
            default -> null;
        };
        if (ended == null) {
            return info.isTerminal()
                    ? new Mismatch(
                            last.seq(),
                            "the run is stored as " + info.status() + ", but its log has not ended: its last event is "
                                    + lastEvent)
                    : null;
        }
        if (info.status() != ended) {
            return new Mismatch(
                    last.seq(), "the run is stored as " + info.status() + ", but its log ends with " + lastEvent);
        }
        Payload output = last instanceof WorkflowCompleted c ? c.output() : null;
        if (!same(output, info.output())) {
            return new Mismatch(last.seq(), "the run's stored output is not the one its " + lastEvent + " holds");
        }
        ErrorInfo error = last instanceof WorkflowFailed f ? f.error() : null;
        if (!sameError(error, info.error())) {
            return new Mismatch(last.seq(), "the run's stored error is not the one its " + lastEvent + " holds");
        }
        return null;
    }

    private static List<Event> decode(String runId, StoredRecord r) {
        return FORMAT.decodeAll(runId, r.seq(), r.text());
    }

    /** The same value of the same type: JSON compared as data, since a world may store it reformatted. */
    private static boolean same(Payload a, Payload b) {
        boolean aNone = a == null || a.json().equals("null");
        boolean bNone = b == null || b.json().equals("null");
        if (aNone || bNone) {
            return aNone == bNone;
        }
        if (!Objects.equals(a.type(), b.type())) {
            return false;
        }
        if (a.json().equals(b.json())) {
            return true;
        }
        try {
            return JSON.readTree(a.json()).equals(JSON.readTree(b.json()));
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    private static boolean sameError(ErrorInfo a, ErrorInfo b) {
        if (a == null || b == null) {
            return a == b;
        }
        return Objects.equals(a.type(), b.type()) && Objects.equals(a.message(), b.message());
    }
}
