package io.tfstream.spec.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigDecimal;

/**
 * Reads JSON into a tree that keeps numbers exact: integers as integers of any size, fractions as
 * {@link BigDecimal} (so a float32 is rounded once, from the decimal text), except {@code -0.0},
 * which stays a double so its sign survives. Duplicate keys and trailing content are errors.
 */
final class JsonTrees {
    private static final JsonFactory FACTORY =
            JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private JsonTrees() {}

    static JsonNode read(String json) throws IOException {
        try (JsonParser p = FACTORY.createParser(json)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw new JsonParseException(p, "empty input");
            }
            JsonNode root = value(p);
            if (p.nextToken() != null) {
                throw new JsonParseException(p, "trailing content after the JSON value");
            }
            return root;
        }
    }

    private static JsonNode value(JsonParser p) throws IOException {
        switch (p.currentToken()) {
            case START_OBJECT:
                ObjectNode o = NODES.objectNode();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    p.nextToken();
                    o.set(name, value(p));
                }
                return o;
            case START_ARRAY:
                ArrayNode a = NODES.arrayNode();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    a.add(value(p));
                }
                return a;
            case VALUE_STRING:
                return NODES.textNode(p.getText());
            case VALUE_NUMBER_INT:
                return NODES.numberNode(p.getBigIntegerValue());
            case VALUE_NUMBER_FLOAT:
                BigDecimal d = p.getDecimalValue();
                if (d.signum() == 0 && p.getText().startsWith("-")) {
                    return NODES.numberNode(-0.0d);
                }
                return NODES.numberNode(d);
            case VALUE_TRUE:
                return NODES.booleanNode(true);
            case VALUE_FALSE:
                return NODES.booleanNode(false);
            case VALUE_NULL:
                return NODES.nullNode();
            default:
                throw new JsonParseException(p, "unexpected token " + p.currentToken());
        }
    }
}
