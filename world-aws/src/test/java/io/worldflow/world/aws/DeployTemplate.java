package io.worldflow.world.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * {@code deploy/template.yaml} as {@link DeployTemplateTest} reads it: with its parameters given and its loops
 * ({@code Fn::ForEach}) expanded, and the little of CloudFormation it takes to resolve its values: Ref, Fn::Sub,
 * Fn::GetAtt, Fn::Join and Fn::If over the resources it uses them on. Anything else fails, naming it, rather than
 * resolving wrongly. The stack is read as if deployed in {@link #REGION} of {@link #ACCOUNT}, so that the ARNs it names
 * can be compared with those {@link RequestRecorder} gives the requests.
 */
final class DeployTemplate {

    /** The emulators' region; the account is made up: the ARNs the requests and the template name must agree on it. */
    static final String REGION = "us-east-1";

    static final String ACCOUNT = "123456789012";

    private final Map<String, Object> parameters = new TreeMap<>();
    private final JsonNode conditions;
    private final ObjectNode resources;

    private DeployTemplate(JsonNode root, Map<String, Object> given) {
        root.path("Parameters").properties().forEach(p -> {
            Object value = given.get(p.getKey());
            if (value == null) {
                JsonNode dflt = p.getValue().get("Default");
                if (dflt == null) {
                    fail("parameter " + p.getKey() + " has no default: the test must give it");
                }
                value = p.getValue().path("Type").asText().equals("CommaDelimitedList")
                        ? List.of(dflt.asText().split(","))
                        : dflt.asText();
            }
            parameters.put(p.getKey(), value);
        });
        conditions = root.path("Conditions");
        resources = expand((ObjectNode) root.get("Resources")); // the loops' collections are parameters
    }

    static DeployTemplate read(Path file, Map<String, Object> parameters) throws IOException {
        return new DeployTemplate(new YAMLMapper().readTree(file.toFile()), parameters);
    }

    // --- what the tests ask

    Map<String, TableShape> tables() {
        Map<String, TableShape> tables = new TreeMap<>();
        resourcesOfType("AWS::DynamoDB::Table").forEach((id, r) -> {
            JsonNode p = r.path("Properties");
            assertThat(p.path("BillingMode").asText())
                    .as("%s's billing (Tables creates every table on demand)", id)
                    .isEqualTo("PAY_PER_REQUEST");
            Map<String, String> attributes = new TreeMap<>();
            p.path("AttributeDefinitions")
                    .forEach(a -> attributes.put(
                            a.path("AttributeName").asText(),
                            a.path("AttributeType").asText()));
            Map<String, IndexShape> indexes = new TreeMap<>();
            for (JsonNode i : p.path("GlobalSecondaryIndexes")) {
                Set<String> nonKey = new TreeSet<>();
                i.path("Projection").path("NonKeyAttributes").forEach(a -> nonKey.add(a.asText()));
                indexes.put(
                        i.path("IndexName").asText(),
                        new IndexShape(
                                keys(i.path("KeySchema")),
                                i.path("Projection").path("ProjectionType").asText(),
                                nonKey));
            }
            tables.put(text(id, "TableName"), new TableShape(keys(p.path("KeySchema")), attributes, indexes));
        });
        return tables;
    }

    private static Map<String, String> keys(JsonNode schema) {
        Map<String, String> keys = new TreeMap<>();
        schema.forEach(k ->
                keys.put(k.path("AttributeName").asText(), k.path("KeyType").asText()));
        return keys;
    }

    /** The logical id of the queue of this name. */
    String wakeQueue(String name) {
        return resourcesOfType("AWS::SQS::Queue").keySet().stream()
                .filter(id -> name.equals(text(id, "QueueName")))
                .findFirst()
                .orElseGet(() -> fail("the template makes no SQS queue named " + name));
    }

    /** The name of the dead-letter queue of the queue {@code id}. */
    String deadLetterQueueOf(String id) {
        String arn = text(properties(id).path("RedrivePolicy"), "deadLetterTargetArn");
        assertThat(arn).as("%s has a redrive policy", id).isNotNull();
        return arn.substring(arn.lastIndexOf(':') + 1);
    }

    Map<String, String> environment(String function) {
        Map<String, String> env = new TreeMap<>();
        properties(function).path("Environment").path("Variables").properties().forEach(v -> {
            Object value = resolve(v.getValue());
            if (value != null) {
                env.put(v.getKey(), value.toString());
            }
        });
        return env;
    }

    /** Every statement of the role: its inline policies, its managed policies, and the policies attached to it. */
    List<Grant> grantsOf(String role) {
        assertThat(type(role)).isEqualTo("AWS::IAM::Role");
        Map<String, JsonNode> documents = new LinkedHashMap<>();
        for (JsonNode p : properties(role).path("Policies")) {
            documents.put(role + "/" + p.path("PolicyName").asText(), p.path("PolicyDocument"));
        }
        for (JsonNode arn : properties(role).path("ManagedPolicyArns")) {
            String policy = arn.path("Ref").asText(null);
            if (policy == null || !"AWS::IAM::ManagedPolicy".equals(type(policy))) {
                fail(role + " has a managed policy the template does not define (" + arn
                        + "): every grant must be in the template, where this test sees it");
            }
            documents.put(policy, properties(policy).path("PolicyDocument"));
        }
        resourcesOfType("AWS::IAM::Policy").forEach((id, r) -> {
            for (JsonNode attached : r.path("Properties").path("Roles")) {
                if (role.equals(attached.path("Ref").asText())) {
                    documents.put(id, r.path("Properties").path("PolicyDocument"));
                }
            }
        });
        List<Grant> grants = new ArrayList<>();
        documents.forEach((where, document) -> {
            for (JsonNode s : document.path("Statement")) {
                String at = where + "/" + s.path("Sid").asText("?");
                assertThat(s.path("Effect").asText()).as("%s's effect", at).isEqualTo("Allow");
                assertThat(s.has("NotAction") || s.has("NotResource") || s.has("Condition"))
                        .as("%s uses only Action and Resource, which this test reads", at)
                        .isFalse();
                grants.add(new Grant(
                        at, new TreeSet<>(strings(resolve(s.path("Action")))), strings(resolve(s.path("Resource")))));
            }
        });
        return grants;
    }

    Map<String, JsonNode> resourcesOfType(String type) {
        Map<String, JsonNode> out = new TreeMap<>();
        resources.properties().forEach(r -> {
            if (type.equals(r.getValue().path("Type").asText())) {
                out.put(r.getKey(), r.getValue());
            }
        });
        return out;
    }

    String arnOf(String id) {
        return (String) getAtt(id, "Arn");
    }

    /** A property of a resource, resolved, as text. */
    String text(String id, String property) {
        return text(properties(id), property);
    }

    String text(JsonNode properties, String property) {
        Object v = resolve(properties.get(property));
        return v == null ? null : v.toString();
    }

    // --- expanding and resolving

    private ObjectNode expand(ObjectNode section) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        section.properties().forEach(e -> {
            if (e.getKey().startsWith("Fn::ForEach::")) {
                String identifier = e.getValue().get(0).asText();
                for (String item : strings(resolve(e.getValue().get(1)))) {
                    out.setAll(expand((ObjectNode) substitute(e.getValue().get(2), identifier, item)));
                }
            } else {
                out.set(e.getKey(), e.getValue());
            }
        });
        return out;
    }

    /** The loop's fragment for one item: ${id} is the item, &{id} the item less what is not a letter or digit. */
    private static JsonNode substitute(JsonNode node, String identifier, String item) {
        if (node.isTextual()) {
            return TextNode.valueOf(node.asText()
                    .replace("${" + identifier + "}", item)
                    .replace("&{" + identifier + "}", item.replaceAll("[^A-Za-z0-9]", "")));
        } else if (node.isObject()) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            node.properties()
                    .forEach(e -> out.set(
                            substitute(TextNode.valueOf(e.getKey()), identifier, item)
                                    .asText(),
                            substitute(e.getValue(), identifier, item)));
            return out;
        } else if (node.isArray()) {
            var out = JsonNodeFactory.instance.arrayNode();
            node.forEach(n -> out.add(substitute(n, identifier, item)));
            return out;
        }
        return node;
    }

    /** A value as CloudFormation would make it: a string, a list, a map, or null for AWS::NoValue. */
    Object resolve(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        } else if (node.isValueNode()) {
            return node.asText();
        } else if (node.isArray()) {
            List<Object> out = new ArrayList<>();
            node.forEach(n -> out.add(resolve(n)));
            return out;
        }
        if (node.size() == 1) {
            String function = node.fieldNames().next();
            JsonNode arg = node.get(function);
            switch (function) {
                case "Ref":
                    return ref(arg.asText());
                case "Fn::Sub":
                    return sub(arg);
                case "Fn::GetAtt":
                    String[] att = arg.isArray()
                            ? new String[] {arg.get(0).asText(), arg.get(1).asText()}
                            : arg.asText().split("\\.", 2);
                    return getAtt(att[0], att[1]);
                case "Fn::Join":
                    return strings(resolve(arg.get(1))).stream()
                            .collect(Collectors.joining(arg.get(0).asText()));
                case "Fn::If":
                    return holds(conditions.get(arg.get(0).asText())) ? resolve(arg.get(1)) : resolve(arg.get(2));
                default:
                    if (function.startsWith("Fn::")) {
                        fail("DeployTemplate does not resolve " + function + " (in " + node + ")");
                    }
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        node.properties().forEach(e -> out.put(e.getKey(), resolve(e.getValue())));
        return out;
    }

    private boolean holds(JsonNode condition) {
        if (condition.has("Fn::Not")) {
            return !holds(condition.get("Fn::Not").get(0));
        } else if (condition.has("Fn::Equals")) {
            JsonNode pair = condition.get("Fn::Equals");
            return String.valueOf(resolve(pair.get(0))).equals(String.valueOf(resolve(pair.get(1))));
        } else if (condition.has("Condition")) {
            return holds(conditions.get(condition.get("Condition").asText()));
        }
        return fail("DeployTemplate does not evaluate the condition " + condition);
    }

    private Object ref(String name) {
        if (parameters.containsKey(name)) {
            return parameters.get(name);
        }
        switch (name) {
            case "AWS::Region":
                return REGION;
            case "AWS::AccountId":
                return ACCOUNT;
            case "AWS::Partition":
                return "aws";
            case "AWS::NoValue":
                return null;
            default:
        }
        return switch (type(name)) {
            case "AWS::DynamoDB::Table" -> text(name, "TableName");
            case "AWS::SQS::Queue" ->
                "https://sqs." + REGION + ".amazonaws.com/" + ACCOUNT + "/" + text(name, "QueueName");
            case "AWS::IAM::ManagedPolicy" -> "arn:aws:iam::" + ACCOUNT + ":policy/" + name;
            default -> name; // what a Ref gives elsewhere (a physical name) does not matter to the checks
        };
    }

    private Object getAtt(String id, String attribute) {
        return switch (type(id) + "." + attribute) {
            case "AWS::DynamoDB::Table.Arn" -> tableArn(text(id, "TableName"));
            case "AWS::SQS::Queue.Arn" -> queueArn(text(id, "QueueName"));
            case "AWS::SQS::Queue.QueueName" -> text(id, "QueueName");
            case "AWS::Logs::LogGroup.Arn" -> "arn:aws:logs:" + REGION + ":" + ACCOUNT + ":log-group:" + id + ":*";
            case "AWS::IAM::Role.Arn" -> "arn:aws:iam::" + ACCOUNT + ":role/" + id;
            default -> fail("DeployTemplate does not resolve Fn::GetAtt " + id + "." + attribute);
        };
    }

    private String sub(JsonNode arg) {
        String text = arg.isArray() ? arg.get(0).asText() : arg.asText();
        Map<String, Object> variables = new TreeMap<>();
        if (arg.isArray()) {
            arg.get(1).properties().forEach(v -> variables.put(v.getKey(), resolve(v.getValue())));
        }
        Matcher m = Pattern.compile("\\$\\{([^}]+)}").matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            Object value;
            if (name.startsWith("!")) {
                value = "${" + name.substring(1) + "}";
            } else if (variables.containsKey(name)) {
                value = variables.get(name);
            } else if (name.contains(".") && !name.startsWith("AWS::")) {
                value = getAtt(name.substring(0, name.indexOf('.')), name.substring(name.indexOf('.') + 1));
            } else {
                value = ref(name);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(String.valueOf(value)));
        }
        m.appendTail(out);
        return out.toString();
    }

    private String type(String id) {
        JsonNode r = resources.get(id);
        if (r == null) {
            fail("the template has no resource or parameter " + id);
        }
        return r.path("Type").asText();
    }

    private JsonNode properties(String id) {
        type(id);
        return resources.get(id).path("Properties");
    }

    static List<String> strings(Object value) {
        if (value == null) {
            return List.of();
        }
        if (value instanceof List<?> list) {
            return list.stream().map(String::valueOf).toList();
        }
        return List.of(value.toString());
    }

    // --- ARNs, as the template and the requests both name them

    static String tableArn(String table) {
        return "arn:aws:dynamodb:" + REGION + ":" + ACCOUNT + ":table/" + table;
    }

    static String queueArn(String queue) {
        return "arn:aws:sqs:" + REGION + ":" + ACCOUNT + ":" + queue;
    }

    // --- what the template's parts come to, in forms the tests compare

    /**
     * An IAM statement of a role: it allows its actions on the resources its patterns match ('*' and '?' as IAM has
     * them).
     */
    record Grant(String where, Set<String> actions, List<String> resources) {

        boolean allows(String action, String resource) {
            return actions.contains(action) && resources.stream().anyMatch(r -> matches(r, resource));
        }

        private static boolean matches(String pattern, String resource) {
            StringBuilder regex = new StringBuilder();
            for (char c : pattern.toCharArray()) {
                regex.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
            }
            return resource.matches(regex.toString());
        }
    }

    /** A table's keys, attribute definitions and indexes, in a form that compares regardless of order. */
    record TableShape(Map<String, String> keys, Map<String, String> attributes, Map<String, IndexShape> indexes) {

        static TableShape of(TableDescription t) {
            Map<String, String> attributes = new TreeMap<>();
            t.attributeDefinitions().forEach(a -> attributes.put(a.attributeName(), a.attributeTypeAsString()));
            Map<String, IndexShape> indexes = new TreeMap<>();
            for (GlobalSecondaryIndexDescription i : t.globalSecondaryIndexes()) {
                indexes.put(
                        i.indexName(),
                        new IndexShape(
                                keys(i.keySchema()),
                                i.projection().projectionTypeAsString(),
                                new TreeSet<>(i.projection().nonKeyAttributes())));
            }
            return new TableShape(keys(t.keySchema()), attributes, indexes);
        }

        private static Map<String, String> keys(List<KeySchemaElement> schema) {
            Map<String, String> keys = new TreeMap<>();
            schema.forEach(k -> keys.put(k.attributeName(), k.keyTypeAsString()));
            return keys;
        }
    }

    /** A global secondary index's keys, projection type and projected attributes. */
    record IndexShape(Map<String, String> keys, String projection, Set<String> nonKeyAttributes) {}
}
