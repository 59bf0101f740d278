package io.worldflow.dashboard.internal;

import io.worldflow.WorldflowException;

/** A request the API refuses: its HTTP status, a stable error code and a message naming what was wrong. */
public final class ApiException extends WorldflowException {

    private final int status;
    private final String code;

    public ApiException(int status, String code, String message) {
        super(message);
        this.status = status;
        this.code = code;
    }

    public ApiException(int status, String code, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.code = code;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    static ApiException badRequest(String message) {
        return new ApiException(400, "bad_request", message);
    }
}
