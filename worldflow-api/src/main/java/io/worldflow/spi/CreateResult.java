package io.worldflow.spi;

import io.worldflow.RunInfo;

/**
 * @param run     the run as it now stands
 * @param created false when a run with that id already existed (and was returned unchanged)
 */
public record CreateResult(RunInfo run, boolean created) {
}
