package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import java.util.ArrayList;
import java.util.List;

/** struct.unpack: the values a format reads from a string from a 1-based start, then the next position. */
final class StructUnpacker {
    private final StructFormat format;
    private final byte[] data;
    private final List<LuaValue> results = new ArrayList<>();
    private long pos;

    private StructUnpacker(StructFormat format, byte[] data, long pos) {
        this.format = format;
        this.data = data;
        this.pos = pos;
    }

    static Varargs unpack(Varargs args) {
        StructFormat format = new StructFormat(LuaArgs.bytes(LuaArgs.checkString("unpack", args, 1)), "unpack");
        byte[] data = LuaArgs.bytes(LuaArgs.checkString("unpack", args, 2));
        long start = LuaArgs.optInteger("unpack", args, 3, 1);
        if (start == 0) {
            throw LuaArgs.argError("unpack", 3, "offset must be 1 or greater");
        }
        return new StructUnpacker(format, data, start - 1).run();
    }

    private Varargs run() {
        while (format.hasNext()) {
            int option = format.nextOption();
            long size = format.size(option);
            pos += format.padding(pos, option, size);
            checkRoom(size);
            if (results.size() + 4 > MsgpackDecoder.MAX_C_STACK) {
                throw new LuaError("stack overflow (too many results)");
            }
            pos += item(option, size);
        }
        results.add(LuaValue.valueOf((double) (pos + 1)));
        return LuaValue.varargsOf(results.toArray(new LuaValue[0]));
    }

    /** Reads one option at pos; answers how many bytes it used. */
    private long item(int option, long size) {
        int at = (int) pos;
        if (StructFormat.isIntegerOption(option)) {
            results.add(LuaArgs.number(integer(at, Character.isLowerCase(option), (int) size)));
        } else if (option == 'f') {
            results.add(LuaArgs.number(Float.intBitsToFloat((int) bits(at, 4))));
        } else if (option == 'd') {
            results.add(LuaArgs.number(Double.longBitsToDouble(bits(at, 8))));
        } else if (option == 'c') {
            return chars(at, size);
        } else if (option == 's') {
            return zeroTerminated(at);
        } else if (option != 'x') {
            format.control(option);
        }
        return size;
    }

    /** c<n>: n bytes; c0 takes its length from the number unpacked just before it, which it replaces. */
    private long chars(int at, long size) {
        long length = size;
        if (length == 0) {
            Double n = results.isEmpty() ? null : LuaArgs.toNumber(results.get(results.size() - 1));
            if (n == null) {
                throw new LuaError("format 'c0' needs a previous size");
            }
            results.remove(results.size() - 1);
            length = CNumbers.toUnsignedLong(n);
            checkRoom(length);
        }
        results.add(LuaString.valueOf(data, at, (int) length));
        return length;
    }

    private long zeroTerminated(int at) {
        int end = at;
        while (end < data.length && data[end] != 0) {
            end++;
        }
        if (end == data.length) {
            throw new LuaError("unfinished string in data");
        }
        results.add(LuaString.valueOf(data, at, end - at));
        return end - at + 1;
    }

    /** The data must hold size bytes at pos (both unsigned, as the C size_t arithmetic reads them). */
    private void checkRoom(long size) {
        long length = data.length;
        if (Long.compareUnsigned(size, length) > 0 || Long.compareUnsigned(pos, length - size) > 0) {
            throw LuaArgs.argError("unpack", 2, "data string too short");
        }
    }

    private long bits(int at, int size) {
        long l = 0;
        for (int i = 0; i < size; i++) {
            l = (l << 8) | (data[format.littleEndian ? at + size - 1 - i : at + i] & 0xff);
        }
        return l;
    }

    /** Only the last 8 bytes of wider integers count, as in the C code's 64-bit accumulator. */
    private double integer(int at, boolean signed, int size) {
        long l = bits(at, size);
        if (!signed) {
            return CNumbers.unsignedToDouble(l);
        }
        long mask = -1L << (size * 8 - 1);
        return (l & mask) != 0 ? (double) (l | mask) : (double) l;
    }
}
