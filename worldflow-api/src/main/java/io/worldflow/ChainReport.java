package io.worldflow;

/**
 * What checking a run's hash-chained event log found. Every record of a run's log (the events of one append) is
 * stored with a link: a hash over the previous link, the record's seq range and its stored bytes; the run keeps the
 * last link as its head. Recomputing the links from the stored bytes tells whether a record was changed, removed,
 * moved or cut off the end since it was written.
 *
 * @param runId       the run
 * @param logLength   the log's length as the run's projection states it
 * @param chainedFrom the first seq the chain covers: 0 for a run written with the chain, the seq of its first linked
 *                    record for a run written in part before there was one (the records before it are not covered)
 * @param head        the run's head link as stored, in hex; null when the run has none
 * @param brokenAt    null when the chain holds; else the first seq at which it does not
 * @param problem     null when the chain holds; else what is wrong at {@code brokenAt}, in words
 */
public record ChainReport(String runId, long logLength, long chainedFrom, String head, Long brokenAt, String problem) {

    public ChainReport {
        if ((brokenAt == null) != (problem == null)) {
            throw new IllegalArgumentException("a broken chain names both where and what; an intact one neither");
        }
    }

    /** Whether every record from {@link #chainedFrom} on, and the head, are as they were written. */
    public boolean intact() {
        return brokenAt == null;
    }
}
