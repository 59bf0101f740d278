package io.worldflow.world.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.worldflow.spi.World;
import io.worldflow.tck.StoredFixtures;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Items written by an earlier version read back unchanged, in tables the world opens as they are. */
class StoredFixturesTest {

    @Test
    void itemsWrittenByTheFirstVersionReadBackAsItExportedThem() throws Exception {
        try (AwsWorlds worlds = new AwsWorlds();
                DynamoDbClient dynamo = Emulators.shared().dynamoClient()) {
            World world = worlds.open();
            JsonNode tables;
            try (InputStream in = getClass().getResourceAsStream("/fixtures/dynamodb-items.json")) {
                tables = new ObjectMapper().readTree(in);
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = tables.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> table = it.next();
                for (JsonNode item : table.getValue()) {
                    dynamo.putItem(
                            b -> b.tableName(worlds.prefix + table.getKey()).item(item(item)));
                }
            }

            StoredFixtures.assertTimelinesReadBack(
                    world, getClass().getResourceAsStream("/fixtures/aws-timelines.json"));
        }
    }

    private static Map<String, AttributeValue> item(JsonNode json) {
        Map<String, AttributeValue> out = new LinkedHashMap<>();
        json.fields().forEachRemaining(f -> out.put(f.getKey(), value(f.getValue())));
        return out;
    }

    /** One attribute in DynamoDB's JSON form ({@code {"S": "…"}}, {@code {"N": "…"}}, {@code {"B": base64}}, …). */
    private static AttributeValue value(JsonNode v) {
        Map.Entry<String, JsonNode> typed = v.fields().next();
        JsonNode x = typed.getValue();
        return switch (typed.getKey()) {
            case "S" -> AttributeValue.fromS(x.asText());
            case "N" -> AttributeValue.fromN(x.asText());
            case "B" ->
                AttributeValue.fromB(SdkBytes.fromByteArray(Base64.getDecoder().decode(x.asText())));
            case "BOOL" -> AttributeValue.fromBool(x.asBoolean());
            case "NULL" -> AttributeValue.fromNul(true);
            case "SS" -> AttributeValue.fromSs(texts(x));
            case "NS" -> AttributeValue.fromNs(texts(x));
            case "L" -> {
                List<AttributeValue> list = new ArrayList<>();
                x.forEach(e -> list.add(value(e)));
                yield AttributeValue.fromL(list);
            }
            case "M" -> AttributeValue.fromM(item(x));
            default -> throw new IllegalArgumentException("unknown attribute type " + typed.getKey());
        };
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(e -> out.add(e.asText()));
        return out;
    }
}
