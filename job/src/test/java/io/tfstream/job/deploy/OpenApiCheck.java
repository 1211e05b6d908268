package io.tfstream.job.deploy;

import java.util.List;
import java.util.Map;

/**
 * Checks a parsed YAML document against the OpenAPI v3 schema of a CustomResourceDefinition as the
 * API server's strict field validation does ({@code kubectl apply --validate=strict}): unknown
 * fields, value types and enums. Model classes accept unknown fields silently (fabric8's pod model
 * keeps them as additional properties), so a misspelt field is caught here only.
 */
final class OpenApiCheck {
    private OpenApiCheck() {}

    /** Adds one message per violation of {@code schema} by {@code value} at {@code path}. */
    static void check(String path, Object value, Map<?, ?> schema, List<String> errors) {
        if (Boolean.TRUE.equals(schema.get("x-kubernetes-int-or-string"))) {
            if (!(value instanceof Integer || value instanceof Long || value instanceof String)) {
                errors.add(path + ": expected an integer or a string, got " + value);
            }
            return;
        }
        Object enumValues = schema.get("enum");
        if (enumValues instanceof List<?> allowed && !allowed.contains(value)) {
            errors.add(path + ": '" + value + "' is not one of " + allowed);
        }
        String type = String.valueOf(schema.get("type"));
        switch (type) {
            case "object" -> object(path, value, schema, errors);
            case "array" -> {
                if (value instanceof List<?> items) {
                    Map<?, ?> itemSchema = (Map<?, ?>) schema.get("items");
                    for (int i = 0; i < items.size(); i++) {
                        check(path + "[" + i + "]", items.get(i), itemSchema, errors);
                    }
                } else {
                    errors.add(path + ": expected a list, got " + value);
                }
            }
            case "string" -> expect(path, value, value instanceof String, type, errors);
            case "integer" ->
                    expect(
                            path,
                            value,
                            value instanceof Integer || value instanceof Long,
                            type,
                            errors);
            case "number" -> expect(path, value, value instanceof Number, type, errors);
            case "boolean" -> expect(path, value, value instanceof Boolean, type, errors);
            default -> {
                // No type: anything goes (x-kubernetes-preserve-unknown-fields).
            }
        }
    }

    private static void object(String path, Object value, Map<?, ?> schema, List<String> errors) {
        if (!(value instanceof Map<?, ?> fields)) {
            errors.add(path + ": expected a mapping, got " + value);
            return;
        }
        Map<?, ?> properties = schema.get("properties") instanceof Map<?, ?> p ? p : Map.of();
        Object additional = schema.get("additionalProperties");
        boolean open =
                Boolean.TRUE.equals(schema.get("x-kubernetes-preserve-unknown-fields"))
                        || Boolean.TRUE.equals(additional)
                        || (properties.isEmpty() && additional == null);
        for (Map.Entry<?, ?> e : fields.entrySet()) {
            String at = path + "." + e.getKey();
            if (properties.get(e.getKey()) instanceof Map<?, ?> s) {
                check(at, e.getValue(), s, errors);
            } else if (additional instanceof Map<?, ?> s) {
                check(at, e.getValue(), s, errors);
            } else if (!open) {
                errors.add(at + ": unknown field");
            }
        }
    }

    private static void expect(
            String path, Object value, boolean ok, String type, List<String> errors) {
        if (!ok) {
            errors.add(path + ": expected " + type + ", got " + value);
        }
    }
}
