package io.worldflow.world.aws;

import io.worldflow.WorldException;

/**
 * Something to store is larger than the AWS world takes (see the module README for the limits). Nothing was
 * written. Not transient: the same call fails again.
 */
public class PayloadTooLargeException extends WorldException {

    private final long size;
    private final long limit;

    public PayloadTooLargeException(String what, long size, long limit) {
        super(
                what + " is " + size + " bytes of JSON, more than the AWS world's limit of " + limit
                        + " bytes; nothing was written",
                false,
                null);
        this.size = size;
        this.limit = limit;
    }

    public long size() {
        return size;
    }

    public long limit() {
        return limit;
    }
}
