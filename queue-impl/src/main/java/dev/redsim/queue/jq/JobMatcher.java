package dev.redsim.queue.jq;

import org.msgpack.value.Value;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Selects jobs for a constraint: an optional exact job name, and argument fields that must be equal (the
 * argument must then be a map holding each named key with an equal MessagePack value). Empty matches every job.
 */
public record JobMatcher(String name, Map<String, Value> argumentFields) {
    public JobMatcher {
        argumentFields = Map.copyOf(argumentFields);
    }

    public static JobMatcher byName(String name) {
        return new JobMatcher(name, Map.of());
    }

    public boolean matches(String jobName, byte[] argument) {
        if (name != null && !name.equals(jobName)) {
            return false;
        }
        if (argumentFields.isEmpty()) {
            return true;
        }
        Value decoded = Msgpack.decode(argument);
        if (!decoded.isMapValue()) {
            return false;
        }
        Map<String, Value> fields = Msgpack.fields(decoded);
        return argumentFields.entrySet().stream().allMatch(e -> e.getValue().equals(fields.get(e.getKey())));
    }

    Value toValue() {
        Map<org.msgpack.value.Value, Value> args = new LinkedHashMap<>();
        argumentFields.forEach((k, v) -> args.put(org.msgpack.value.ValueFactory.newString(k), v));
        return Msgpack.map("name", name, "argument", org.msgpack.value.ValueFactory.newMap(args));
    }

    static JobMatcher fromValue(Value value) {
        Map<String, Value> fields = Msgpack.fields(value);
        Value name = fields.get("name");
        Value argument = fields.get("argument");
        return new JobMatcher(name == null || name.isNilValue() ? null : name.asStringValue().asString(),
                argument == null || argument.isNilValue() ? Map.of() : Msgpack.fields(argument));
    }
}
