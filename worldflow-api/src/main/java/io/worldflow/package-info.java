/**
 * What workflow code and its callers use: {@link io.worldflow.Workflow} to define a workflow,
 * {@link io.worldflow.WorkflowContext} for its primitives (steps, durable sleeps, signals, fan-outs, recorded
 * values), the options they take, {@link io.worldflow.RunHandle} and {@link io.worldflow.RunInfo} to follow a run,
 * and the exceptions, all under {@link io.worldflow.WorldflowException}.
 */
package io.worldflow;
