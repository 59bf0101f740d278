/**
 * The AWS world ({@code worldflow.world=aws}): runs in DynamoDB (logs partitioned by run id, conditional
 * transactions) and wake-ups through SQS, for workers in any number of processes or AWS Lambda. Only the provider is
 * public here, with the error for a payload too large for an item; the rest is in {@code io.worldflow.world.aws.internal}.
 */
package io.worldflow.world.aws;
