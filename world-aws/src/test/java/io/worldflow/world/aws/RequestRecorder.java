package io.worldflow.world.aws;

import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static io.worldflow.world.aws.DeployTemplate.tableArn;

/**
 * Records, for each request, the IAM actions it needs and the resources they act on, as IAM authorises them. Given to a
 * world as an interceptor of its clients, it shows what a role must allow for what that world did, which
 * {@link DeployTemplateTest} compares with the template's grants; the ARNs are those {@link DeployTemplate} names.
 */
final class RequestRecorder implements ExecutionInterceptor {

    /** IAM has no resource-level permission for it: granted on '*' or not at all (WakeQueues.check calls it). */
    static final String LIST_QUEUES = "sqs:ListQueues";

    /**
     * An IAM action on a resource (an ARN, or '*' for an action IAM grants on no resource), and the request that made
     * it.
     */
    record Call(String action, String resource, String operation) {}

    /** Each distinct call once, however often the workload makes it; concurrent, as a world's threads send at once. */
    final Set<Call> calls = ConcurrentHashMap.newKeySet();

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        String service = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME);
        String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        calls.addAll(
                service.equals("Sqs")
                        ? sqsCalls(operation, context.request())
                        : dynamoCalls(operation, context.request()));
    }

    private static List<Call> dynamoCalls(String op, SdkRequest request) {
        return switch (request) {
            case TransactWriteItemsRequest t ->
                t.transactItems().stream().map(i -> transactItem(op, i)).toList();
            case BatchGetItemRequest b ->
                b.requestItems().keySet().stream()
                        .map(t -> new Call("dynamodb:BatchGetItem", tableArn(t), op))
                        .toList();
            case BatchWriteItemRequest b ->
                b.requestItems().keySet().stream()
                        .map(t -> new Call("dynamodb:BatchWriteItem", tableArn(t), op))
                        .toList();
            case QueryRequest q -> List.of(new Call("dynamodb:Query", onIndex(q.tableName(), q.indexName()), op));
            case ScanRequest s -> List.of(new Call("dynamodb:Scan", onIndex(s.tableName(), s.indexName()), op));
            default ->
                List.of(new Call(
                        "dynamodb:" + op,
                        request.getValueForField("TableName", String.class)
                                .map(DeployTemplate::tableArn)
                                .orElse("(a request the test cannot place: teach the RequestRecorder " + op + ")"),
                        op));
        };
    }

    private static String onIndex(String table, String index) {
        return index == null ? tableArn(table) : tableArn(table) + "/index/" + index;
    }

    private static Call transactItem(String op, TransactWriteItem i) {
        if (i.put() != null) {
            return new Call("dynamodb:PutItem", tableArn(i.put().tableName()), op);
        } else if (i.update() != null) {
            return new Call("dynamodb:UpdateItem", tableArn(i.update().tableName()), op);
        } else if (i.delete() != null) {
            return new Call("dynamodb:DeleteItem", tableArn(i.delete().tableName()), op);
        }
        return new Call(
                "dynamodb:ConditionCheckItem", tableArn(i.conditionCheck().tableName()), op);
    }

    private static List<Call> sqsCalls(String op, SdkRequest request) {
        if (op.equals("ListQueues")) {
            return List.of(new Call(LIST_QUEUES, "*", op));
        }
        Optional<String> queue = request.getValueForField("QueueName", String.class)
                .or(() -> request.getValueForField("QueueUrl", String.class)
                        .map(url -> url.substring(url.lastIndexOf('/') + 1)));
        return List.of(new Call(
                "sqs:" + op,
                queue.map(DeployTemplate::queueArn)
                        .orElse("(a request the test cannot place: teach the RequestRecorder " + op + ")"),
                op));
    }
}
