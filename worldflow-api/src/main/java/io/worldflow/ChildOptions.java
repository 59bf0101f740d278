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
 */
public record ChildOptions(
        String id, String queue, Integer priority, Duration timeout, ParentClosePolicy parentClosePolicy) {

    public ChildOptions {
        if (id != null) {
            new StartOptions(id, null, null, null, null, 0, null); // the same rules as a run started by a client
        }
        if (queue != null && queue.isBlank()) {
            throw new IllegalArgumentException("queue must not be blank");
        }
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
        parentClosePolicy = parentClosePolicy == null ? ParentClosePolicy.REQUEST_CANCEL : parentClosePolicy;
    }

    /** A derived id, the parent's queue and priority, no time limit, and {@link ParentClosePolicy#REQUEST_CANCEL}. */
    public static ChildOptions defaults() {
        return new ChildOptions(null, null, null, null, null);
    }

    public ChildOptions withId(String value) {
        return new ChildOptions(value, queue, priority, timeout, parentClosePolicy);
    }

    public ChildOptions withQueue(String value) {
        return new ChildOptions(id, value, priority, timeout, parentClosePolicy);
    }

    public ChildOptions withPriority(int value) {
        return new ChildOptions(id, queue, value, timeout, parentClosePolicy);
    }

    public ChildOptions withTimeout(Duration value) {
        return new ChildOptions(id, queue, priority, value, parentClosePolicy);
    }

    public ChildOptions withParentClosePolicy(ParentClosePolicy value) {
        return new ChildOptions(id, queue, priority, timeout, value);
    }
}
