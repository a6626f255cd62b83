package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/** The global {@code struct} of Redis scripts: pack, unpack and size of C-struct-like binary strings. */
public final class StructLib {
    private StructLib() {
    }

    public static LuaTable create() {
        LuaTable struct = new LuaTable();
        NamedFunction.register(struct, "pack", StructLib::pack);
        NamedFunction.register(struct, "unpack", StructLib::unpack);
        NamedFunction.register(struct, "size", StructLib::size);
        return struct;
    }

    private static StructFormat format(String function, Varargs args) {
        return new StructFormat(LuaArgs.bytes(LuaArgs.checkString(function, args, 1)), function);
    }

    private static Varargs pack(Varargs args) {
        StructFormat format = format("pack", args);
        // The C code pushes a nil after the arguments, so the first missing one reads as nil.
        Varargs values = LuaValue.varargsOf(copyWithTrailingNil(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int arg = 2;
        long total = 0;
        while (format.hasNext()) {
            int option = format.nextOption();
            long size = format.size(option);
            long padding = format.padding(total, option, size);
            total += padding;
            for (long i = 0; i < padding; i++) {
                out.write(0);
            }
            if (StructFormat.isIntegerOption(option)) {
                putInteger(out, LuaArgs.checkNumber("pack", values, arg++), format.littleEndian, (int) size);
            } else if (option == 'x') {
                out.write(0);
            } else if (option == 'f') {
                float f = (float) LuaArgs.checkNumber("pack", values, arg++);
                putBits(out, Float.floatToRawIntBits(f) & 0xffffffffL, format.littleEndian, 4);
            } else if (option == 'd') {
                double d = LuaArgs.checkNumber("pack", values, arg++);
                putBits(out, Double.doubleToRawLongBits(d), format.littleEndian, 8);
            } else if (option == 'c' || option == 's') {
                LuaString s = LuaArgs.checkString("pack", values, arg++);
                if (size == 0) {
                    size = s.m_length;
                }
                if (s.m_length < size) {
                    throw LuaArgs.argError("pack", arg, "string too short");
                }
                out.write(s.m_bytes, s.m_offset, (int) size);
                if (option == 's') {
                    out.write(0);
                    size++;
                }
            } else {
                format.control(option);
            }
            total += size;
        }
        return LuaString.valueUsing(out.toByteArray());
    }

    private static LuaValue[] copyWithTrailingNil(Varargs args) {
        LuaValue[] copy = new LuaValue[args.narg() + 1];
        for (int i = 0; i < args.narg(); i++) {
            copy[i] = args.arg(i + 1);
        }
        copy[args.narg()] = LuaValue.NIL;
        return copy;
    }

    /** A number as C's (unsigned long) of it, written in size bytes (zeros beyond 8). */
    private static void putInteger(ByteArrayOutputStream out, double n, boolean littleEndian, int size) {
        long value = n < 0 ? CNumbers.toLong(n) : CNumbers.toUnsignedLong(n);
        putBits(out, value, littleEndian, size);
    }

    private static void putBits(ByteArrayOutputStream out, long value, boolean littleEndian, int size) {
        byte[] buf = new byte[size];
        for (int i = 0; i < size; i++) {
            int index = littleEndian ? i : size - 1 - i;
            buf[index] = (byte) value;
            value >>>= 8;
        }
        out.write(buf, 0, size);
    }

    private static Varargs unpack(Varargs args) {
        StructFormat format = format("unpack", args);
        byte[] data = LuaArgs.bytes(LuaArgs.checkString("unpack", args, 2));
        long start = LuaArgs.optInteger("unpack", args, 3, 1);
        if (start == 0) {
            throw LuaArgs.argError("unpack", 3, "offset must be 1 or greater");
        }
        long pos = start - 1;
        long length = data.length;
        List<LuaValue> results = new ArrayList<>();
        while (format.hasNext()) {
            int option = format.nextOption();
            long size = format.size(option);
            pos += format.padding(pos, option, size);
            checkRoom(pos, size, length);
            if (results.size() + 2 + 2 > MsgpackDecoder.MAX_C_STACK) {
                throw new LuaError("stack overflow (too many results)");
            }
            if (StructFormat.isIntegerOption(option)) {
                boolean signed = Character.isLowerCase(option);
                results.add(LuaArgs.number(getInteger(data, (int) pos, format.littleEndian, signed, (int) size)));
            } else if (option == 'f') {
                int bits = (int) getBits(data, (int) pos, format.littleEndian, 4);
                results.add(LuaArgs.number(Float.intBitsToFloat(bits)));
            } else if (option == 'd') {
                results.add(LuaArgs.number(Double.longBitsToDouble(getBits(data, (int) pos, format.littleEndian, 8))));
            } else if (option == 'c') {
                if (size == 0) {
                    size = previousSize(results);
                    checkRoom(pos, size, length);
                }
                results.add(LuaString.valueOf(data, (int) pos, (int) size));
            } else if (option == 's') {
                int end = (int) pos;
                while (end < data.length && data[end] != 0) {
                    end++;
                }
                if (end == data.length) {
                    throw new LuaError("unfinished string in data");
                }
                size = end - pos + 1;
                results.add(LuaString.valueOf(data, (int) pos, (int) size - 1));
            } else if (option != 'x') {
                format.control(option);
            }
            pos += size;
        }
        results.add(LuaValue.valueOf((double) (pos + 1)));
        return LuaValue.varargsOf(results.toArray(new LuaValue[0]));
    }

    /** The data must hold size bytes at pos (both read as unsigned, as the C size_t arithmetic does). */
    private static void checkRoom(long pos, long size, long length) {
        boolean fits = Long.compareUnsigned(size, length) <= 0
                && Long.compareUnsigned(pos, length - size) <= 0;
        if (!fits) {
            throw LuaArgs.argError("unpack", 2, "data string too short");
        }
    }

    /** c0 takes its length from the number unpacked just before it, which it consumes. */
    private static long previousSize(List<LuaValue> results) {
        Double n = results.isEmpty() ? null : LuaArgs.toNumber(results.get(results.size() - 1));
        if (n == null) {
            throw new LuaError("format 'c0' needs a previous size");
        }
        results.remove(results.size() - 1);
        return CNumbers.toUnsignedLong(n);
    }

    private static long getBits(byte[] data, int pos, boolean littleEndian, int size) {
        long l = 0;
        for (int i = 0; i < size; i++) {
            int index = littleEndian ? pos + size - 1 - i : pos + i;
            l = (l << 8) | (data[index] & 0xff);
        }
        return l;
    }

    private static double getInteger(byte[] data, int pos, boolean littleEndian, boolean signed, int size) {
        long l = getBits(data, pos, littleEndian, size);
        if (!signed) {
            return CNumbers.unsignedToDouble(l);
        }
        long mask = -1L << (size * 8 - 1);
        if ((l & mask) != 0) {
            l |= mask;
        }
        return (double) l;
    }

    private static boolean isAsciiAlphanumeric(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static Varargs size(Varargs args) {
        StructFormat format = format("size", args);
        long pos = 0;
        while (format.hasNext()) {
            int option = format.nextOption();
            long size = format.size(option);
            pos += format.padding(pos, option, size);
            if (option == 's') {
                throw LuaArgs.argError("size", 1, "option 's' has no fixed size");
            }
            if (option == 'c' && size == 0) {
                throw LuaArgs.argError("size", 1, "option 'c0' has no fixed size");
            }
            if (!isAsciiAlphanumeric(option)) {
                format.control(option);
            }
            pos += size;
        }
        return LuaValue.valueOf((double) pos);
    }
}
