package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import java.io.ByteArrayOutputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.nio.charset.StandardCharsets;

/** cjson.encode: Lua values to JSON text, with Redis cjson's array detection, escaping and errors. */
final class CjsonEncoder {
    private static final byte[][] ESCAPES = escapes();

    private final CjsonConfig config;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    CjsonEncoder(CjsonConfig config) {
        this.config = config;
    }

    static LuaString encode(CjsonConfig config, LuaValue value) {
        CjsonEncoder encoder = new CjsonEncoder(config);
        encoder.run(value);
        return LuaString.valueUsing(encoder.out.toByteArray());
    }

    /**
     * A table being written: arrays walk index 1..length, objects walk next(). Nesting is kept on an explicit
     * stack rather than Java recursion, so the 1000 levels Redis allows fit any thread's stack.
     */
    private static final class Frame {
        final LuaTable table;
        final int depth;
        final int length;
        int index = 1;
        LuaValue key = LuaValue.NIL;

        Frame(LuaTable table, int depth, int length) {
            this.table = table;
            this.depth = depth;
            this.length = length;
        }

        boolean isArray() {
            return length > 0;
        }
    }

    private void run(LuaValue root) {
        Deque<Frame> stack = new ArrayDeque<>();
        emit(root, 0, stack);
        while (!stack.isEmpty()) {
            Frame frame = stack.peek();
            if (frame.isArray()) {
                if (frame.index > frame.length) {
                    out.write(']');
                    stack.pop();
                    continue;
                }
                if (frame.index > 1) {
                    out.write(',');
                }
                emit(frame.table.rawget(frame.index++), frame.depth, stack);
                continue;
            }
            boolean first = frame.key.isnil();
            Varargs next = frame.table.next(frame.key);
            frame.key = next.arg1();
            if (frame.key.isnil()) {
                out.write('}');
                stack.pop();
                continue;
            }
            if (!first) {
                out.write(',');
            }
            appendKey(frame.key);
            emit(next.arg(2), frame.depth, stack);
        }
    }

    /** Writes a scalar, or opens a table (one level deeper) and pushes it to be written. */
    private void emit(LuaValue value, int depth, Deque<Frame> stack) {
        switch (value.type()) {
            case LuaValue.TSTRING -> appendString(value.checkstring());
            case LuaValue.TNUMBER -> appendNumber(value.todouble());
            case LuaValue.TBOOLEAN -> write(value.toboolean() ? "true" : "false");
            case LuaValue.TNIL -> write("null");
            case LuaValue.TTABLE -> stack.push(open((LuaTable) value, depth + 1));
            default -> {
                if (JsonNull.is(value)) {
                    write("null");
                } else {
                    throw cannotSerialise(value.typename(), "type not supported");
                }
            }
        }
    }

    private Frame open(LuaTable table, int depth) {
        if (depth > config.encodeMaxDepth) {
            throw LuaArgs.error("Cannot serialise, excessive nesting (" + depth + ")");
        }
        int length = arrayLength(table);
        out.write(length > 0 ? '[' : '{');
        return new Frame(table, depth, Math.max(length, 0));
    }

    /** The array size when every key is an integer >= 1 (and the array is not too sparse), else -1. */
    private int arrayLength(LuaTable table) {
        int max = 0;
        int items = 0;
        LuaValue key = LuaValue.NIL;
        while (true) {
            Varargs next = table.next(key);
            key = next.arg1();
            if (key.isnil()) {
                break;
            }
            double k = key.type() == LuaValue.TNUMBER ? key.todouble() : 0;
            if (k != 0 && Math.floor(k) == k && k >= 1) {
                if (k > max) {
                    max = CNumbers.toInt(k);
                }
                items++;
                continue;
            }
            return -1;
        }
        if (config.sparseRatio > 0 && max > items * config.sparseRatio && max > config.sparseSafe) {
            if (config.sparseConvert == 0) {
                throw cannotSerialise("table", "excessively sparse array");
            }
            return -1;
        }
        return max;
    }

    private void appendKey(LuaValue key) {
        if (key.type() == LuaValue.TNUMBER) {
            out.write('"');
            appendNumber(key.todouble());
            write("\":");
        } else if (key.type() == LuaValue.TSTRING) {
            appendString(key.checkstring());
            out.write(':');
        } else {
            throw cannotSerialise(key.typename(), "table key must be a number or string");
        }
    }

    private void appendNumber(double d) {
        boolean invalid = Double.isNaN(d) || Double.isInfinite(d);
        if (invalid && config.encodeInvalidNumbers == CjsonConfig.INVALID_OFF) {
            throw cannotSerialise("number", "must not be NaN or Inf");
        }
        if (invalid && config.encodeInvalidNumbers == CjsonConfig.INVALID_NULL) {
            write("null");
            return;
        }
        if (Double.isNaN(d)) {
            write("nan");
            return;
        }
        write(CNumbers.formatG(d, config.encodeNumberPrecision));
    }

    private void appendString(LuaString s) {
        out.write('"');
        for (int i = 0; i < s.m_length; i++) {
            int c = s.m_bytes[s.m_offset + i] & 0xff;
            byte[] escape = ESCAPES[c];
            if (escape != null) {
                out.write(escape, 0, escape.length);
            } else {
                out.write(c);
            }
        }
        out.write('"');
    }

    private void write(String ascii) {
        byte[] b = ascii.getBytes(StandardCharsets.US_ASCII);
        out.write(b, 0, b.length);
    }

    private static org.luaj.vm2.LuaError cannotSerialise(String type, String reason) {
        return LuaArgs.error("Cannot serialise " + type + ": " + reason);
    }

    /** Control characters as \\uXXXX (short forms for \b \t \n \f \r), and " \\ / DEL escaped. */
    private static byte[][] escapes() {
        byte[][] table = new byte[256][];
        for (int c = 0; c < 32; c++) {
            table[c] = String.format("\\u%04x", c).getBytes(StandardCharsets.US_ASCII);
        }
        table['\b'] = "\\b".getBytes(StandardCharsets.US_ASCII);
        table['\t'] = "\\t".getBytes(StandardCharsets.US_ASCII);
        table['\n'] = "\\n".getBytes(StandardCharsets.US_ASCII);
        table['\f'] = "\\f".getBytes(StandardCharsets.US_ASCII);
        table['\r'] = "\\r".getBytes(StandardCharsets.US_ASCII);
        table['"'] = "\\\"".getBytes(StandardCharsets.US_ASCII);
        table['\\'] = "\\\\".getBytes(StandardCharsets.US_ASCII);
        table['/'] = "\\/".getBytes(StandardCharsets.US_ASCII);
        table[127] = "\\u007f".getBytes(StandardCharsets.US_ASCII);
        return table;
    }
}
