package io.worldflow;

/**
 * What was being done was canceled: the run (a {@link WorkflowCanceledException}), or a part of it, such as the
 * primitive or scope that lost a {@linkplain WorkflowContext#race race}. Thrown into workflow code at its next
 * primitive in the canceled scope, and from {@link DurableFuture#get()} of a canceled primitive. Code that must still
 * do something after a cancel does it in a {@linkplain WorkflowContext#detached detached} scope.
 */
public class CanceledException extends WorldflowException {

    private final String scopeId;

    /** @param scopeId the id of the canceled primitive or scope; empty for the whole run */
    public CanceledException(String scopeId, String message) {
        super(message);
        this.scopeId = scopeId;
    }

    /** The id of the canceled primitive or scope; empty for the whole run. */
    public String scopeId() {
        return scopeId;
    }
}
