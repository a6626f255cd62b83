package dev.redsim.queue.jq;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import org.msgpack.value.Value;

import java.util.List;
import java.util.Map;

/**
 * Checks a decoded MessagePack value against an OpenAPI 3.0 schema (the subset openapi.json uses: $ref, allOf,
 * nullable, type, enum, required, properties, additionalProperties, items). Every map key must be documented.
 */
final class SchemaCheck {
    private final JsonObject document;

    SchemaCheck(JsonObject document) {
        this.document = document;
    }

    JsonObject resolve(JsonObject node) {
        while (node.has("$ref")) {
            JsonElement target = document;
            for (String part : node.get("$ref").getAsString().substring(2).split("/")) {
                target = target.getAsJsonObject().get(part);
            }
            node = target.getAsJsonObject();
        }
        return node;
    }

    void check(Value v, JsonObject schemaNode, String where, List<String> problems) {
        JsonObject schema = resolve(schemaNode);
        boolean nullable = schema.has("nullable") && schema.get("nullable").getAsBoolean();
        if (v.isNilValue()) {
            if (!nullable && (schema.has("type") || schema.has("allOf") || schema.has("$ref"))) {
                problems.add(where + ": nil but not nullable");
            }
            return;
        }
        if (schema.has("allOf")) {
            schema.getAsJsonArray("allOf").forEach(s -> check(v, s.getAsJsonObject(), where, problems));
        }
        if (schema.has("enum")) {
            boolean listed = false;
            for (JsonElement e : schema.getAsJsonArray("enum")) {
                listed |= v.isStringValue() && e.getAsString().equals(v.asStringValue().asString());
            }
            if (!listed) {
                problems.add(where + ": " + v + " not in " + schema.get("enum"));
            }
        }
        if (!schema.has("type")) {
            return;
        }
        switch (schema.get("type").getAsString()) {
            case "object" -> object(v, schema, where, problems);
            case "array" -> {
                if (!v.isArrayValue()) {
                    problems.add(where + ": not an array: " + v);
                    return;
                }
                int i = 0;
                for (Value item : v.asArrayValue()) {
                    check(item, schema.getAsJsonObject("items"), where + "[" + i++ + "]", problems);
                }
            }
            case "string" -> expect(v.isStringValue(), where, "string", v, problems);
            case "integer" -> expect(v.isIntegerValue(), where, "integer", v, problems);
            case "number" -> expect(v.isNumberValue(), where, "number", v, problems);
            case "boolean" -> expect(v.isBooleanValue(), where, "boolean", v, problems);
            default -> problems.add(where + ": unknown schema type " + schema.get("type"));
        }
    }

    private void object(Value v, JsonObject schema, String where, List<String> problems) {
        if (!v.isMapValue()) {
            problems.add(where + ": not a map: " + v);
            return;
        }
        Map<String, Value> fields = Msgpack.fields(v);
        if (schema.has("required")) {
            schema.getAsJsonArray("required").forEach(r -> {
                if (!fields.containsKey(r.getAsString())) {
                    problems.add(where + ": required field " + r.getAsString() + " missing in " + v);
                }
            });
        }
        JsonObject properties = schema.has("properties") ? schema.getAsJsonObject("properties") : new JsonObject();
        fields.forEach((key, value) -> {
            if (properties.has(key)) {
                check(value, properties.getAsJsonObject(key), where + "." + key, problems);
            } else if (schema.has("additionalProperties")) {
                check(value, schema.getAsJsonObject("additionalProperties"), where + "." + key, problems);
            } else {
                problems.add(where + ": undocumented field " + key);
            }
        });
    }

    private static void expect(boolean ok, String where, String type, Value v, List<String> problems) {
        if (!ok) {
            problems.add(where + ": expected " + type + ", got " + v);
        }
    }
}
