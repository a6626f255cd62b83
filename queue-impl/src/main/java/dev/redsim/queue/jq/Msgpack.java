package dev.redsim.queue.jq;

import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePackException;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.MapValue;
import org.msgpack.value.Value;
import org.msgpack.value.ValueFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** MessagePack in and out: one value per body, maps with string keys for records. */
public final class Msgpack {
    private Msgpack() {
    }

    public static byte[] encode(Value value) {
        try (MessageBufferPacker packer = MessagePack.newDefaultBufferPacker()) {
            packer.packValue(value);
            return packer.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Decodes exactly one value; trailing bytes or truncation are a {@link MalformedException}. */
    public static Value decode(byte[] bytes) {
        try (MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(bytes)) {
            if (!unpacker.hasNext()) {
                throw new MalformedException("empty body: one MessagePack value expected");
            }
            Value value = unpacker.unpackValue();
            if (unpacker.hasNext()) {
                throw new MalformedException("trailing bytes after the MessagePack value");
            }
            return value;
        } catch (IOException | MessagePackException e) {
            throw new MalformedException("not MessagePack: " + e.getMessage());
        }
    }

    /** A record's fields by name; a body that is not a map is a {@link MalformedException}. */
    public static Map<String, Value> fields(Value value) {
        if (!value.isMapValue()) {
            throw new MalformedException("a map was expected, got " + value.getValueType());
        }
        Map<String, Value> fields = new LinkedHashMap<>();
        for (Map.Entry<Value, Value> e : value.asMapValue().entrySet()) {
            if (e.getKey().isStringValue()) {
                fields.put(e.getKey().asStringValue().asString(), e.getValue());
            }
        }
        return fields;
    }

    /** Builds a map value with string keys; Java nulls become MessagePack nil. */
    public static MapValue map(Object... keysAndValues) {
        Map<Value, Value> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(ValueFactory.newString((String) keysAndValues[i]), value(keysAndValues[i + 1]));
        }
        return ValueFactory.newMap(map);
    }

    public static Value value(Object o) {
        if (o == null) {
            return ValueFactory.newNil();
        } else if (o instanceof Value v) {
            return v;
        } else if (o instanceof String s) {
            return ValueFactory.newString(s);
        } else if (o instanceof Integer i) {
            return ValueFactory.newInteger(i);
        } else if (o instanceof Long l) {
            return ValueFactory.newInteger(l);
        } else if (o instanceof Boolean b) {
            return ValueFactory.newBoolean(b);
        } else if (o instanceof Double d) {
            return ValueFactory.newFloat(d);
        } else if (o instanceof byte[] b) {
            return decode(b);
        } else if (o instanceof java.util.List<?> list) {
            return ValueFactory.newArray(list.stream().map(Msgpack::value).toList());
        }
        throw new IllegalArgumentException("no MessagePack mapping for " + o.getClass());
    }

    /** Bad input from a client: the HTTP layer answers 400 with this message. */
    public static final class MalformedException extends RuntimeException {
        public MalformedException(String message) {
            super(message);
        }
    }
}
