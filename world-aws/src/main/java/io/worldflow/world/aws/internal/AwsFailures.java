package io.worldflow.world.aws.internal;

import io.worldflow.WorldException;
import io.worldflow.WorldflowException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

import java.util.function.Supplier;

/** Turns SDK failures into {@link WorldException}s that say whether trying again may help. */
public final class AwsFailures {

    private AwsFailures() {}

    /** Runs {@code call}, translating an SDK failure into a WorldException that says {@code what} failed. */
    public static <T> T call(String what, Supplier<T> call) {
        try {
            return call.get();
        } catch (WorldflowException | ConditionalCheckFailedException | TransactionCanceledException e) {
            throw e; // a lost race or a conflict: the caller decides
        } catch (SdkException e) {
            throw translate(what, e);
        }
    }

    public static void run(String what, Runnable call) {
        call(what, () -> {
            call.run();
            return null;
        });
    }

    public static WorldException translate(String what, SdkException e) {
        return new WorldException("AWS world: " + what + " failed: " + describe(e), isTransient(e), e);
    }

    static boolean isTransient(SdkException e) {
        if (e instanceof SdkClientException) {
            return true; // no answer: network, timeout
        }
        if (e instanceof AwsServiceException s) {
            return s.isThrottlingException() || s.statusCode() >= 500 || s.retryable();
        }
        return e.retryable();
    }

    static String describe(SdkException e) {
        if (e instanceof AwsServiceException s && s.awsErrorDetails() != null) {
            return s.awsErrorDetails().errorCode() + " (HTTP " + s.statusCode() + "): "
                    + s.awsErrorDetails().errorMessage();
        }
        return e.getMessage();
    }
}
