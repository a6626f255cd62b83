package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import java.io.ByteArrayOutputStream;

/** struct.pack: the arguments after the format, written one format option at a time. */
final class StructPacker {
    private final StructFormat format;
    private final Varargs values;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private int arg = 2;

    private StructPacker(StructFormat format, Varargs args) {
        this.format = format;
        this.values = withTrailingNil(args);
    }

    static LuaString pack(Varargs args) {
        StructFormat format = new StructFormat(LuaArgs.bytes(LuaArgs.checkString("pack", args, 1)), "pack");
        return new StructPacker(format, args).run();
    }

    /** The C code pushes a nil after the arguments, so the first missing one reads as nil, not "no value". */
    private static Varargs withTrailingNil(Varargs args) {
        LuaValue[] copy = new LuaValue[args.narg() + 1];
        for (int i = 0; i < args.narg(); i++) {
            copy[i] = args.arg(i + 1);
        }
        copy[args.narg()] = LuaValue.NIL;
        return LuaValue.varargsOf(copy);
    }

    private LuaString run() {
        long total = 0;
        while (format.hasNext()) {
            int option = format.nextOption();
            long size = format.size(option);
            long padding = format.padding(total, option, size);
            for (long i = 0; i < padding; i++) {
                out.write(0);
            }
            total += padding + item(option, size);
        }
        return LuaString.valueUsing(out.toByteArray());
    }

    /** Writes one option's bytes; answers how many it wrote. */
    private long item(int option, long size) {
        if (StructFormat.isIntegerOption(option)) {
            putInteger(number(), (int) size);
        } else if (option == 'x') {
            out.write(0);
        } else if (option == 'f') {
            putBits(Float.floatToRawIntBits((float) number()) & 0xffffffffL, 4);
        } else if (option == 'd') {
            putBits(Double.doubleToRawLongBits(number()), 8);
        } else if (option == 'c' || option == 's') {
            return string(option, size);
        } else {
            format.control(option);
        }
        return size;
    }

    private double number() {
        return LuaArgs.checkNumber("pack", values, arg++);
    }

    /** c<n> writes n bytes of the string (c0: all of it), s the whole string and a NUL. */
    private long string(int option, long size) {
        LuaString s = LuaArgs.checkString("pack", values, arg++);
        long length = size == 0 ? s.m_length : size;
        if (s.m_length < length) {
            throw LuaArgs.argError("pack", arg, "string too short");
        }
        out.write(s.m_bytes, s.m_offset, (int) length);
        if (option == 's') {
            out.write(0);
            length++;
        }
        return length;
    }

    /** A number as C's (unsigned long) of it, in size bytes (zeros beyond 8). */
    private void putInteger(double n, int size) {
        putBits(n < 0 ? CNumbers.toLong(n) : CNumbers.toUnsignedLong(n), size);
    }

    private void putBits(long value, int size) {
        byte[] buf = new byte[size];
        long rest = value;
        for (int i = 0; i < size; i++) {
            buf[format.littleEndian ? i : size - 1 - i] = (byte) rest;
            rest >>>= 8;
        }
        out.write(buf, 0, size);
    }
}
