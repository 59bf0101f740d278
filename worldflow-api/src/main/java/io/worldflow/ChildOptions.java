package io.worldflow;

import java.time.Duration;

/**
 * How a child workflow is started.
 *
 * @param id                the child's run id, or null for one derived from the parent's run id and the primitive's
 *                          place (the same on every replay)
 * @param queue             the queue its turns go to, or null for the parent's
 * @param priority          its priority, or null for the parent's
 * @param timeout           how long it may run before it fails, or null for no limit
 * @param parentClosePolicy what becomes of it when the parent ends first
 * @param retry             how the child as a whole is tried again when it fails (not when it is canceled), or null
 *                          for once: each attempt is a run of its own ({@code <id>-retry-<n>} after the first),
 *                          started after a durable pause ({@code <name>-backoff-<n>}) as the policy says; a failure
 *                          whose type the policy names as not retryable, or a {@link NonRetryableException}, ends it
 * @param searchAttributes  the child's search attributes as it starts; empty for none (a child does not inherit its
 *                          parent's)
 */
public record ChildOptions(
        String id,
        String queue,
        Integer priority,
        Duration timeout,
        ParentClosePolicy parentClosePolicy,
        RetryPolicy retry,
        SearchAttributes searchAttributes) {

    public ChildOptions {
        if (id != null) {
            new StartOptions(id, null, null, null, null, 0, null); // the same rules as a run started by a client
        }
        if (queue != null) {
            QueueSpec.checkName("queue", queue);
        }
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
        parentClosePolicy = parentClosePolicy == null ? ParentClosePolicy.REQUEST_CANCEL : parentClosePolicy;
        searchAttributes = searchAttributes == null ? SearchAttributes.empty() : searchAttributes;
    }

    /** Options of a child started without search attributes of its own. */
    public ChildOptions(
            String id,
            String queue,
            Integer priority,
            Duration timeout,
            ParentClosePolicy parentClosePolicy,
            RetryPolicy retry) {
        this(id, queue, priority, timeout, parentClosePolicy, retry, null);
    }

    /** Options of a child tried once. */
    public ChildOptions(
            String id, String queue, Integer priority, Duration timeout, ParentClosePolicy parentClosePolicy) {
        this(id, queue, priority, timeout, parentClosePolicy, null, null);
    }

    /**
     * A derived id, the parent's queue and priority, no time limit, {@link ParentClosePolicy#REQUEST_CANCEL}, tried
     * once.
     */
    public static ChildOptions defaults() {
        return new ChildOptions(null, null, null, null, null, null, null);
    }

    public ChildOptions withId(String value) {
        return new ChildOptions(value, queue, priority, timeout, parentClosePolicy, retry, searchAttributes);
    }

    public ChildOptions withQueue(String value) {
        return new ChildOptions(id, value, priority, timeout, parentClosePolicy, retry, searchAttributes);
    }

    public ChildOptions withPriority(int value) {
        return new ChildOptions(id, queue, value, timeout, parentClosePolicy, retry, searchAttributes);
    }

    public ChildOptions withTimeout(Duration value) {
        return new ChildOptions(id, queue, priority, value, parentClosePolicy, retry, searchAttributes);
    }

    public ChildOptions withParentClosePolicy(ParentClosePolicy value) {
        return new ChildOptions(id, queue, priority, timeout, value, retry, searchAttributes);
    }

    /** @param value how the child as a whole is tried again when it fails, or null for once */
    public ChildOptions withRetry(RetryPolicy value) {
        return new ChildOptions(id, queue, priority, timeout, parentClosePolicy, value, searchAttributes);
    }

    /** Starts the child with the search attributes {@code value}. */
    public ChildOptions withSearchAttributes(SearchAttributes value) {
        return new ChildOptions(id, queue, priority, timeout, parentClosePolicy, retry, value);
    }
}
