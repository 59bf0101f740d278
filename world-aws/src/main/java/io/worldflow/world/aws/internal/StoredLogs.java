package io.worldflow.world.aws.internal;

import io.worldflow.RunNotFoundException;
import io.worldflow.spi.StoredLog;
import io.worldflow.spi.StoredRecord;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a run's log as stored, each record with its link, with the run's length and head ({@code EventLog#storedLog}).
 *
 * <p>DynamoDB cannot read a run's item and all its pages at once (a transactional read takes at most 100 items), so
 * the item is read first, then the pages up to the length it states, both strongly consistent. That is still one
 * state of the log: a record is never rewritten once written, and each append writes its pages together with the
 * item's new length and head in one transaction, so the records below the length read are exactly those written
 * with or before the head read, and whatever is appended after the item was read lies past that length and is left
 * out. What can differ is only when a committed transaction's items become visible to plain reads, which is not
 * promised to be one instant for all of them: when the records read do not run from seq 0 to the length one after
 * another, the item and the pages are read again a few times, and then the log is returned as found, for its check to
 * report what is missing.
 */
final class StoredLogs {

    /** Reads of a log whose records do not reach its length before it is taken as it is. */
    private static final int READS = 3;

    private final Store store;

    StoredLogs(Store store) {
        this.store = store;
    }

    StoredLog read(String runId) {
        for (int attempt = 1; ; attempt++) {
            Map<String, AttributeValue> item = store.run(runId);
            if (item == null) {
                throw new RunNotFoundException(runId);
            }
            long length = RunItem.length(item);
            List<StoredRecord> records = new ArrayList<>();
            if (length > 0) {
                EventPages.Assembler assembler = new EventPages.Assembler();
                store.eventItems(runId, EventPages.from(0), EventPages.through(length - 1), page -> {
                    StoredRecord r = assembler.add(page);
                    if (r != null) {
                        records.add(r);
                    }
                    return true;
                });
            }
            if (whole(records, length) || attempt >= READS) {
                return new StoredLog(runId, length, RunItem.head(item), records);
            }
            Store.backoff(attempt);
        }
    }

    /** Whether the records follow one another from seq 0 to the end of the log. */
    private static boolean whole(List<StoredRecord> records, long length) {
        long expected = 0;
        for (StoredRecord r : records) {
            if (r.seq() != expected) {
                return false;
            }
            expected = r.lastSeq() + 1;
        }
        return expected == length;
    }
}
