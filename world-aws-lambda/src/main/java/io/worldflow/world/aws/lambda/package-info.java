/**
 * Workers as AWS Lambda functions: {@link io.worldflow.world.aws.lambda.SqsTurnHandler} takes the {@code aws} world's
 * wake-up messages from an SQS trigger and runs the due turns. It needs the runtime, so it lives apart from the world.
 */
package io.worldflow.world.aws.lambda;
