package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import java.io.ByteArrayOutputStream;

/**
 * cmsgpack.pack for one value, with lua-cmsgpack 0.4.0's choices: integral doubles as the smallest
 * integer format, other numbers as float32 when exact else float64, strings as fixstr/str8/16/32,
 * tables as arrays when their keys are exactly 1..n else maps, nesting cut to nil at level 16.
 */
final class MsgpackEncoder {
    private static final int MAX_NESTING = 16;
    private static final double TWO_63 = 9223372036854775808.0;

    private final ByteArrayOutputStream out;

    MsgpackEncoder(ByteArrayOutputStream out) {
        this.out = out;
    }

    void encode(LuaValue value, int level) {
        int type = value.type();
        if (type == LuaValue.TTABLE && level == MAX_NESTING) {
            type = LuaValue.TNIL;
        }
        switch (type) {
            case LuaValue.TSTRING -> bytes(value.checkstring());
            case LuaValue.TBOOLEAN -> out.write(value.toboolean() ? 0xc3 : 0xc2);
            case LuaValue.TNUMBER -> number(value.todouble());
            case LuaValue.TTABLE -> table((LuaTable) value, level);
            default -> out.write(0xc0);
        }
    }

    private void bytes(LuaString s) {
        int len = s.m_length;
        if (len < 32) {
            out.write(0xa0 | len);
        } else if (len <= 0xff) {
            out.write(0xd9);
            out.write(len);
        } else if (len <= 0xffff) {
            out.write(0xda);
            writeBigEndian(len, 2);
        } else {
            out.write(0xdb);
            writeBigEndian(len, 4);
        }
        out.write(s.m_bytes, s.m_offset, len);
    }

    private void number(double d) {
        boolean int64 = !Double.isInfinite(d) && !Double.isNaN(d) && d >= -TWO_63 && d < TWO_63 && (long) d == d;
        if (int64) {
            integer((long) d);
            return;
        }
        float f = (float) d;
        if (d == (double) f) {
            out.write(0xca);
            writeBigEndian(Float.floatToRawIntBits(f), 4);
        } else {
            out.write(0xcb);
            writeBigEndian(Double.doubleToRawLongBits(d), 8);
        }
    }

    private void integer(long n) {
        if (n >= 0) {
            if (n <= 127) {
                out.write((int) n);
            } else if (n <= 0xff) {
                out.write(0xcc);
                out.write((int) n);
            } else if (n <= 0xffff) {
                out.write(0xcd);
                writeBigEndian(n, 2);
            } else if (n <= 0xffffffffL) {
                out.write(0xce);
                writeBigEndian(n, 4);
            } else {
                out.write(0xcf);
                writeBigEndian(n, 8);
            }
        } else if (n >= -32) {
            out.write((int) n & 0xff);
        } else if (n >= -128) {
            out.write(0xd0);
            out.write((int) n & 0xff);
        } else if (n >= -32768) {
            out.write(0xd1);
            writeBigEndian(n, 2);
        } else if (n >= -2147483648L) {
            out.write(0xd2);
            writeBigEndian(n, 4);
        } else {
            out.write(0xd3);
            writeBigEndian(n, 8);
        }
    }

    private void table(LuaTable table, int level) {
        if (isArray(table)) {
            int length = table.rawlen(); // lua_objlen: the raw border, no __len
            header(length, 0x90, 0xdc, 0xdd);
            for (int i = 1; i <= length; i++) {
                encode(table.get(i), level + 1);
            }
            return;
        }
        int count = 0;
        for (LuaValue k = table.next(LuaValue.NIL).arg1(); !k.isnil(); k = table.next(k).arg1()) {
            count++;
        }
        header(count, 0x80, 0xde, 0xdf);
        LuaValue key = LuaValue.NIL;
        while (true) {
            Varargs next = table.next(key);
            key = next.arg1();
            if (key.isnil()) {
                break;
            }
            encode(key, level + 1);
            encode(next.arg(2), level + 1);
        }
    }

    /** True when the keys are exactly the integers 1..n (n may be 0). */
    private static boolean isArray(LuaTable table) {
        int count = 0;
        int max = 0;
        for (LuaValue k = table.next(LuaValue.NIL).arg1(); !k.isnil(); k = table.next(k).arg1()) {
            if (k.type() != LuaValue.TNUMBER) {
                return false;
            }
            double n = k.todouble();
            if (n <= 0 || Double.isInfinite(n) || CNumbers.toInt(n) != n) {
                return false;
            }
            max = Math.max(max, (int) n);
            count++;
        }
        return max == count;
    }

    private void header(int n, int fix, int code16, int code32) {
        if (n <= 15) {
            out.write(fix | n);
        } else if (n <= 65535) {
            out.write(code16);
            writeBigEndian(n, 2);
        } else {
            out.write(code32);
            writeBigEndian(n, 4);
        }
    }

    private void writeBigEndian(long value, int size) {
        for (int i = size - 1; i >= 0; i--) {
            out.write((int) (value >>> (8 * i)) & 0xff);
        }
    }
}
