package io.worldflow.world.aws.internal;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds one conditional update of an item: SET, REMOVE, ADD and DELETE clauses and a condition, every
 * attribute name through a placeholder (several of ours are DynamoDB reserved words).
 */
final class Update {

    private final String table;
    private final Map<String, AttributeValue> key;
    private final List<String> sets = new ArrayList<>();
    private final List<String> removes = new ArrayList<>();
    private final List<String> adds = new ArrayList<>();
    private final List<String> deletes = new ArrayList<>();
    private final List<String> conditions = new ArrayList<>();
    private final Map<String, String> names = new LinkedHashMap<>();
    private final Map<String, String> nameOf = new HashMap<>();
    private final Map<String, AttributeValue> values = new HashMap<>();

    Update(String table, Map<String, AttributeValue> key) {
        this.table = table;
        this.key = key;
    }

    /** The placeholder of an attribute name. */
    String name(String attribute) {
        return nameOf.computeIfAbsent(attribute, a -> {
            String p = "#n" + names.size();
            names.put(p, a);
            return p;
        });
    }

    /** A placeholder bound to a value. */
    String value(AttributeValue v) {
        String p = ":v" + values.size();
        values.put(p, v);
        return p;
    }

    Update set(String attribute, AttributeValue v) {
        if (v == null) {
            return remove(attribute);
        }
        sets.add(name(attribute) + " = " + value(v));
        return this;
    }

    Update setExpression(String expression) {
        sets.add(expression);
        return this;
    }

    Update remove(String attribute) {
        removes.add(name(attribute));
        return this;
    }

    Update add(String attribute, AttributeValue v) {
        adds.add(name(attribute) + " " + value(v));
        return this;
    }

    Update delete(String attribute, AttributeValue v) {
        deletes.add(name(attribute) + " " + value(v));
        return this;
    }

    /** Adds a condition, with {@code #name} for attribute {@code name} and {@code ?} for the values, in order. */
    Update when(String expression, AttributeValue... args) {
        StringBuilder out = new StringBuilder();
        int arg = 0;
        for (int i = 0; i < expression.length(); i++) {
            char c = expression.charAt(i);
            if (c == '#') {
                int j = i + 1;
                while (j < expression.length() && Character.isLetterOrDigit(expression.charAt(j))) {
                    j++;
                }
                out.append(name(expression.substring(i + 1, j)));
                i = j - 1;
            } else if (c == '?') {
                out.append(value(args[arg++]));
            } else {
                out.append(c);
            }
        }
        conditions.add("(" + out + ")");
        return this;
    }

    private String expression() {
        StringBuilder e = new StringBuilder();
        if (!sets.isEmpty()) {
            e.append("SET ").append(String.join(", ", sets));
        }
        if (!removes.isEmpty()) {
            e.append(" REMOVE ").append(String.join(", ", removes));
        }
        if (!adds.isEmpty()) {
            e.append(" ADD ").append(String.join(", ", adds));
        }
        if (!deletes.isEmpty()) {
            e.append(" DELETE ").append(String.join(", ", deletes));
        }
        return e.toString().strip();
    }

    private String condition() {
        return conditions.isEmpty() ? null : String.join(" AND ", conditions);
    }

    private Map<String, AttributeValue> valuesOrNull() {
        return values.isEmpty() ? null : values;
    }

    UpdateItemRequest request() {
        return UpdateItemRequest.builder()
                .tableName(table)
                .key(key)
                .updateExpression(expression())
                .conditionExpression(condition())
                .expressionAttributeNames(names)
                .expressionAttributeValues(valuesOrNull())
                .build();
    }

    TransactWriteItem transactItem() {
        if (sets.isEmpty() && removes.isEmpty() && adds.isEmpty() && deletes.isEmpty()) {
            return TransactWriteItem.builder()
                    .conditionCheck(ConditionCheck.builder()
                            .tableName(table)
                            .key(key)
                            .conditionExpression(condition())
                            .expressionAttributeNames(names)
                            .expressionAttributeValues(valuesOrNull())
                            .build())
                    .build();
        }
        return TransactWriteItem.builder()
                .update(software.amazon.awssdk.services.dynamodb.model.Update.builder()
                        .tableName(table)
                        .key(key)
                        .updateExpression(expression())
                        .conditionExpression(condition())
                        .expressionAttributeNames(names)
                        .expressionAttributeValues(valuesOrNull())
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.NONE)
                        .build())
                .build();
    }
}
