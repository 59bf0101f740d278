package io.worldflow.world.aws;

import software.amazon.awssdk.awscore.AwsResponse;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.fail;

/**
 * The DynamoDB and SQS actions the sources call, found by reading them rather than by running them: a workload cannot
 * reach every path of the code (a failure, a limit, a race), and a role that lacks the action of a path no test runs
 * would fail only in production. {@link DeployTemplateTest} holds the template's roles to what this finds, and checks
 * with a workload that it misses no way the code calls the SDK.
 */
final class ClientCallScan {

    private ClientCallScan() {}

    /**
     * The DynamoDB and SQS actions the sources call, each with the file that calls it first. A call is a method of
     * {@link DynamoDbClient} or {@link SqsClient} that sends a request, called on a name the sources declare of one of
     * those types (a field, a parameter, a record component, an accessor), e.g. {@code store.dynamo.getItem(} or
     * {@code wakes.client().sendMessage(}.
     */
    static Map<String, String> actionsCalledIn(List<Path> roots) throws IOException {
        Map<String, String> code = new TreeMap<>();
        for (Path root : roots) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    code.put(f.getFileName().toString(), codeOnly(Files.readString(f)));
                }
            }
        }
        Set<String> receivers = new TreeSet<>();
        Pattern declared = Pattern.compile("\\b(?:DynamoDbClient|SqsClient)\\s+(\\w+)\\b");
        code.values().forEach(text -> declared.matcher(text).results().forEach(m -> receivers.add(m.group(1))));

        Set<String> dynamoOps = operations(DynamoDbClient.class);
        Set<String> sqsOps = operations(SqsClient.class);
        Map<String, String> actions = new TreeMap<>();
        for (Map.Entry<String, String> file : code.entrySet()) {
            for (String receiver : receivers) {
                Pattern call = Pattern.compile(
                        "\\b" + Pattern.quote(receiver) + "\\s*(?:\\(\\s*\\))?\\s*\\.\\s*(\\w+)\\s*\\(");
                Matcher m = call.matcher(file.getValue());
                while (m.find()) {
                    String method = m.group(1).replaceFirst("Paginator$", "");
                    if (method.equals("waiter")) {
                        // a table waiter polls DescribeTable
                        actions.putIfAbsent("dynamodb:DescribeTable", file.getKey());
                    } else if (method.equals("transactWriteItems")) {
                        // authorised item by item: as PutItem, UpdateItem, DeleteItem, ConditionCheckItem
                        transactItemActions(code).forEach(actions::putIfAbsent);
                    } else if (dynamoOps.contains(method)) {
                        actions.putIfAbsent("dynamodb:" + capitalized(method), file.getKey());
                    } else if (sqsOps.contains(method)) {
                        actions.putIfAbsent("sqs:" + capitalized(method), file.getKey());
                    }
                }
            }
        }
        return actions;
    }

    /** The client's methods that send a request (its other methods, such as close, send none). */
    private static Set<String> operations(Class<?> client) {
        return Arrays.stream(client.getMethods())
                .filter(m -> AwsResponse.class.isAssignableFrom(m.getReturnType()))
                .map(Method::getName)
                .collect(Collectors.toSet());
    }

    private static Map<String, String> transactItemActions(Map<String, String> code) {
        Pattern item = Pattern.compile(
                "TransactWriteItem\\s*\\.\\s*builder\\s*\\(\\s*\\)\\s*\\.\\s*(put|update|delete|conditionCheck)\\s*\\(");
        Map<String, String> actions = new TreeMap<>();
        code.forEach((file, text) -> item.matcher(text)
                .results()
                .forEach(m -> actions.putIfAbsent("dynamodb:" + capitalized(m.group(1)) + "Item", file)));
        if (actions.isEmpty()) {
            fail("the sources call transactWriteItems, but the scan finds no TransactWriteItem they build: "
                    + "teach it how the code builds them now");
        }
        return actions;
    }

    private static String capitalized(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** The source without its comments and the contents of its string literals, which may mention calls. */
    private static String codeOnly(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (source.startsWith("//", i)) {
                while (i < n && source.charAt(i) != '\n') {
                    i++;
                }
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                out.append(' ');
            } else if (source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                i = end < 0 ? n : end + 3;
                out.append("\"\"");
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && source.charAt(j) != c) {
                    j += source.charAt(j) == '\\' ? 2 : 1;
                }
                i = j + 1;
                out.append(c).append(c);
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
