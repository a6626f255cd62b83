package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * cmsgpack's decoder: one MessagePack value at a time from a cursor over the input. It keeps the C
 * library's limits: bin/ext types are "bad data format", and Lua 5.1's 8000-slot C stack limit shows as
 * the same "stack overflow (...)" errors when too many values or too deep nesting pile up.
 */
final class MsgpackDecoder {
    /** LUAI_MAXCSTACK: how many slots a C function may use on the Lua stack. */
    static final int MAX_C_STACK = 8000;

    /** Why decoding stopped: input ended early, or a byte is not a type this library reads. */
    static final class Failure extends RuntimeException {
        final boolean missingBytes;

        Failure(boolean missingBytes) {
            super(null, null, false, false);
            this.missingBytes = missingBytes;
        }
    }

    private final byte[] data;
    private int pos;

    MsgpackDecoder(byte[] data, int offset) {
        this.data = data;
        this.pos = offset;
    }

    int position() {
        return pos;
    }

    int left() {
        return data.length - pos;
    }

    private void need(long n) {
        if (left() < n) {
            throw new Failure(true);
        }
    }

    private int u8(int at) {
        return data[pos + at] & 0xff;
    }

    private long bigEndian(int at, int size) {
        long v = 0;
        for (int i = 0; i < size; i++) {
            v = (v << 8) | u8(at + i);
        }
        return v;
    }

    private static void checkStack(int used, String message) {
        if (used + 1 > MAX_C_STACK) {
            throw new LuaError("stack overflow (" + message + ")");
        }
    }

    /** An array or map being filled; nesting is an explicit stack, not Java recursion. */
    private static final class Container {
        final LuaTable table = new LuaTable();
        final boolean map;
        final int base;
        long remaining;
        int index = 1;
        LuaValue key;

        Container(boolean map, long remaining, int base) {
            this.map = map;
            this.remaining = remaining;
            this.base = base;
        }

        /** Stack slots in use below the next item: the table, plus the index or key the C code pushes. */
        int slotsForNext() {
            return map && key == null ? base + 1 : base + 2;
        }
    }

    /** Decodes one value; stack is how many Lua stack slots are in use below it. */
    LuaValue decode(int stack) {
        Deque<Container> open = new ArrayDeque<>();
        int slots = stack;
        while (true) {
            Object item = item(slots);
            LuaValue value;
            if (item instanceof Container container) {
                if (container.remaining > 0) {
                    open.push(container);
                    slots = container.slotsForNext();
                    continue;
                }
                value = container.table;
            } else {
                value = (LuaValue) item;
            }
            while (true) {
                Container container = open.peek();
                if (container == null) {
                    return value;
                }
                if (!store(container, value)) {
                    slots = container.slotsForNext();
                    break;
                }
                open.pop();
                value = container.table;
            }
        }
    }

    /** Puts a decoded item in its container; true when the container is now complete. */
    private static boolean store(Container container, LuaValue value) {
        if (container.map && container.key == null) {
            container.key = value;
            return false;
        }
        if (container.map) {
            LuaValue key = container.key;
            container.key = null;
            if (key.isnil()) {
                throw new VmError("table index is nil");
            }
            if (key.type() == LuaValue.TNUMBER && Double.isNaN(key.todouble())) {
                throw new VmError("table index is NaN");
            }
            container.table.set(key, value);
        } else {
            if (!value.isnil()) {
                container.table.set(container.index, value);
            }
            container.index++;
        }
        return --container.remaining == 0;
    }

    /** One item at the cursor: a scalar LuaValue, or for an array/map header a Container to fill. */
    private Object item(int stack) {
        need(1);
        checkStack(stack, "too many return values at once; use unpack_one or unpack_limit instead.");
        int code = u8(0);
        return switch (code) {
            case 0xcc -> number(2, () -> u8(1));
            case 0xd0 -> number(2, () -> (byte) u8(1));
            case 0xcd -> number(3, () -> bigEndian(1, 2));
            case 0xd1 -> number(3, () -> (short) bigEndian(1, 2));
            case 0xce -> number(5, () -> bigEndian(1, 4));
            case 0xd2 -> number(5, () -> (int) bigEndian(1, 4));
            case 0xcf, 0xd3 -> number(9, () -> bigEndian(1, 8)); // both read as signed 64-bit
            case 0xca -> number(5, () -> Float.intBitsToFloat((int) bigEndian(1, 4)));
            case 0xcb -> number(9, () -> Double.longBitsToDouble(bigEndian(1, 8)));
            case 0xc0 -> constant(LuaValue.NIL);
            case 0xc3 -> constant(LuaValue.TRUE);
            case 0xc2 -> constant(LuaValue.FALSE);
            case 0xd9 -> string(2, () -> u8(1));
            case 0xda -> string(3, () -> bigEndian(1, 2));
            case 0xdb -> string(5, () -> bigEndian(1, 4));
            case 0xdc -> container(false, 3, () -> bigEndian(1, 2), stack);
            case 0xdd -> container(false, 5, () -> bigEndian(1, 4), stack);
            case 0xde -> container(true, 3, () -> bigEndian(1, 2), stack);
            case 0xdf -> container(true, 5, () -> bigEndian(1, 4), stack);
            default -> small(code, stack);
        };
    }

    private LuaValue number(int size, DoubleSupplier read) {
        need(size);
        double value = read.getAsDouble();
        pos += size;
        return LuaValue.valueOf(value);
    }

    private LuaValue constant(LuaValue value) {
        pos += 1;
        return value;
    }

    private LuaValue string(int header, LongSupplier length) {
        need(header);
        return string(header, length.getAsLong());
    }

    private Container container(boolean map, int header, LongSupplier length, int stack) {
        need(header);
        long n = length.getAsLong();
        pos += header;
        return map ? map(n, stack) : array(n, stack);
    }

    /** The one-byte-header types: fixints, fixstr, fixarray, fixmap. */
    private Object small(int code, int stack) {
        if ((code & 0x80) == 0) {
            pos += 1;
            return LuaValue.valueOf(code);
        }
        if ((code & 0xe0) == 0xe0) {
            pos += 1;
            return LuaValue.valueOf((byte) code);
        }
        if ((code & 0xe0) == 0xa0) {
            return string(1, code & 0x1f);
        }
        if ((code & 0xf0) == 0x90) {
            pos += 1;
            return array(code & 0xf, stack);
        }
        if ((code & 0xf0) == 0x80) {
            pos += 1;
            return map(code & 0xf, stack);
        }
        throw new Failure(false);
    }

    private LuaValue string(int header, long length) {
        need(header + length);
        LuaString s = LuaString.valueOf(data, pos + header, (int) length);
        pos += header + (int) length;
        return s;
    }

    private Container array(long length, int stack) {
        Container container = new Container(false, length, stack);
        checkStack(stack + 1, "in function mp_decode_to_lua_array");
        return container;
    }

    private Container map(long length, int stack) {
        return new Container(true, length, stack);
    }
}
