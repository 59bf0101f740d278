package io.worldflow;

/** What becomes of a child workflow still running when its parent run ends. */
public enum ParentClosePolicy {
    /** The child is asked to cancel, as {@code cancel} would: it stops at its next primitive and may clean up. */
    REQUEST_CANCEL,
    /** The child goes on alone; its end is no longer reported to anyone. */
    ABANDON,
    /**
     * The child is ended at once, as {@code terminate} ends a run: canceled without running any more of its code (no
     * cleanup), its running steps interrupted and their results never recorded.
     */
    TERMINATE
}
