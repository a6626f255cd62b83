package dev.redsim.simulator.scripting;

import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * string.format as Lua 5.1 has it: each conversion goes to C's sprintf, so widths, precisions and flags
 * ("%5.1f", "%-5s", "%#x", "%g") behave as glibc prints them, which luaj's own format does not follow.
 * Argument errors are raised in luaj's form ("bad argument #2: ...") for {@link Lua51Function} to reword.
 */
final class Lua51Format extends VarArgFunction {
    private static final String FLAGS = "-+ #0";

    @Override
    public Varargs invoke(Varargs args) {
        LuaString format = args.checkstring(1);
        byte[] f = new byte[format.m_length];
        format.copyInto(0, f, 0, f.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream(f.length + 16);
        int arg = 1;
        for (int i = 0; i < f.length; i++) {
            if (f[i] != '%') {
                out.write(f[i]);
                continue;
            }
            if (++i < f.length && f[i] == '%') {
                out.write('%');
                continue;
            }
            Spec spec = new Spec();
            i = spec.parse(f, i);
            char conversion = i < f.length ? (char) (f[i] & 0xFF) : '\0';
            if (++arg > args.narg()) {
                throw new LuaError("bad argument #" + arg + ": no value");
            }
            write(out, spec, conversion, args, arg);
        }
        return LuaString.valueUsing(out.toByteArray());
    }

    /** The flags, width and precision of one conversion, read as Lua 5.1's scanformat reads them. */
    private static final class Spec {
        boolean left;
        boolean plus;
        boolean space;
        boolean alternate;
        boolean zero;
        int width;
        int precision = -1;

        int parse(byte[] f, int i) {
            int start = i;
            while (i < f.length && FLAGS.indexOf(f[i]) >= 0) {
                switch (f[i++]) {
                    case '-' -> left = true;
                    case '+' -> plus = true;
                    case ' ' -> space = true;
                    case '#' -> alternate = true;
                    default -> zero = true;
                }
            }
            if (i - start > FLAGS.length()) {
                throw ScriptError.positioned("invalid format (repeated flags)");
            }
            int digits = 0;
            while (i < f.length && Character.isDigit(f[i]) && digits++ < 2) {
                width = width * 10 + (f[i++] - '0');
            }
            if (i < f.length && f[i] == '.') {
                i++;
                precision = 0;
                digits = 0;
                while (i < f.length && Character.isDigit(f[i]) && digits++ < 2) {
                    precision = precision * 10 + (f[i++] - '0');
                }
            }
            if (i < f.length && Character.isDigit(f[i])) {
                throw ScriptError.positioned("invalid format (width or precision too long)");
            }
            return i;
        }
    }

    private static void write(ByteArrayOutputStream out, Spec spec, char conversion, Varargs args, int arg) {
        switch (conversion) {
            case 'c' -> pad(out, spec, "", new byte[] {(byte) LuaNumbers.toInteger(number(args, arg))}, false);
            case 'd', 'i' -> integer(out, spec, LuaNumbers.toInteger(number(args, arg)), 10, true, false);
            case 'o' -> integer(out, spec, LuaNumbers.toInteger(number(args, arg)), 8, false, false);
            case 'u' -> integer(out, spec, LuaNumbers.toInteger(number(args, arg)), 10, false, false);
            case 'x' -> integer(out, spec, LuaNumbers.toInteger(number(args, arg)), 16, false, false);
            case 'X' -> integer(out, spec, LuaNumbers.toInteger(number(args, arg)), 16, false, true);
            case 'e', 'E', 'f', 'g', 'G' -> floating(out, spec, conversion, number(args, arg));
            case 'q' -> quoted(out, string(args, arg));
            case 's' -> {
                byte[] s = string(args, arg);
                if (spec.precision < 0 && s.length >= 100) {
                    out.writeBytes(s); // Lua 5.1 keeps long strings whole rather than through sprintf
                } else {
                    int length = spec.precision < 0 ? s.length : Math.min(s.length, spec.precision);
                    byte[] cut = java.util.Arrays.copyOf(s, length);
                    pad(out, spec, "", cut, false);
                }
            }
            default -> throw ScriptError.positioned("invalid option '%" + conversion + "' to 'format'");
        }
    }

    private static double number(Varargs args, int arg) {
        LuaValue n = args.arg(arg).tonumber();
        if (n.isnil()) {
            throw new LuaError("bad argument #" + arg + ": number expected, got " + args.arg(arg).typename());
        }
        return n.todouble();
    }

    private static byte[] string(Varargs args, int arg) {
        LuaValue v = args.arg(arg);
        if (v.type() == LuaValue.TNUMBER) {
            return LuaNumbers.toLuaString(v.todouble()).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        }
        if (v.type() != LuaValue.TSTRING) {
            throw new LuaError("bad argument #" + arg + ": string expected, got " + v.typename());
        }
        LuaString s = v.checkstring();
        byte[] bytes = new byte[s.m_length];
        s.copyInto(0, bytes, 0, bytes.length);
        return bytes;
    }

    /** %d %o %u %x: precision is a minimum digit count, '#' adds 0 or 0x, signs only for %d. */
    private static void integer(ByteArrayOutputStream out, Spec spec, long value, int radix, boolean signed,
            boolean upper) {
        boolean negative = signed && value < 0;
        String digits = signed ? Long.toString(value).replace("-", "") : Long.toUnsignedString(value, radix);
        if (upper) {
            digits = digits.toUpperCase();
        }
        if (spec.precision == 0 && value == 0) {
            digits = "";
        }
        StringBuilder body = new StringBuilder();
        for (int k = digits.length(); k < spec.precision; k++) {
            body.append('0');
        }
        body.append(digits);
        String prefix = negative ? "-" : signed && spec.plus ? "+" : signed && spec.space ? " " : "";
        if (spec.alternate && radix == 8 && (body.length() == 0 || body.charAt(0) != '0')) {
            body.insert(0, '0');
        } else if (spec.alternate && radix == 16 && value != 0) {
            prefix = upper ? "0X" : "0x";
        }
        pad(out, spec, prefix, ascii(body.toString()), spec.precision < 0);
    }

    private static void floating(ByteArrayOutputStream out, Spec spec, char conversion, double v) {
        boolean upper = Character.isUpperCase(conversion);
        boolean negative = v < 0 || (v == 0 && 1 / v < 0) || (Double.isNaN(v) && Double.doubleToRawLongBits(v) >= 0);
        String prefix = negative ? "-" : spec.plus ? "+" : spec.space ? " " : "";
        String body;
        boolean finite = !Double.isNaN(v) && !Double.isInfinite(v);
        if (!finite) {
            body = Double.isNaN(v) ? "nan" : "inf"; // x86's 0/0 has the sign bit set: glibc prints "-nan"
        } else {
            int precision = spec.precision < 0 ? 6 : spec.precision;
            BigDecimal abs = new BigDecimal(v).abs();
            body = switch (Character.toLowerCase(conversion)) {
                case 'f' -> fixed(abs, precision, spec.alternate);
                case 'e' -> scientific(abs, precision, spec.alternate);
                default -> general(abs, precision == 0 ? 1 : precision, spec.alternate);
            };
        }
        pad(out, spec, prefix, ascii(upper ? body.toUpperCase() : body), finite);
    }

    private static String fixed(BigDecimal abs, int precision, boolean alternate) {
        String s = abs.setScale(precision, RoundingMode.HALF_EVEN).toPlainString();
        return alternate && precision == 0 ? s + "." : s;
    }

    private static String scientific(BigDecimal abs, int precision, boolean alternate) {
        int exponent = 0;
        String digits;
        if (abs.signum() == 0) {
            digits = "0".repeat(precision + 1);
        } else {
            BigDecimal rounded = abs.round(new MathContext(precision + 1, RoundingMode.HALF_EVEN));
            exponent = rounded.precision() - rounded.scale() - 1;
            digits = rounded.unscaledValue().toString();
            digits = (digits + "0".repeat(precision + 1)).substring(0, precision + 1);
        }
        StringBuilder s = new StringBuilder().append(digits.charAt(0));
        if (precision > 0 || alternate) {
            s.append('.').append(digits, 1, digits.length());
        }
        s.append('e').append(exponent < 0 ? '-' : '+');
        int e = Math.abs(exponent);
        return s.append(e < 10 ? "0" : "").append(e).toString();
    }

    /** %g: %e or %f by the exponent, at {@code precision} significant digits, trailing zeros dropped. */
    private static String general(BigDecimal abs, int precision, boolean alternate) {
        int exponent = 0;
        if (abs.signum() != 0) {
            BigDecimal rounded = abs.round(new MathContext(precision, RoundingMode.HALF_EVEN));
            exponent = rounded.precision() - rounded.scale() - 1;
        }
        String s;
        if (exponent < -4 || exponent >= precision) {
            s = scientific(abs, precision - 1, alternate);
            if (!alternate) {
                int e = s.indexOf('e');
                s = stripZeros(s.substring(0, e)) + s.substring(e);
            }
        } else {
            s = fixed(abs, precision - 1 - exponent, alternate);
            if (!alternate) {
                s = stripZeros(s);
            }
        }
        return s;
    }

    private static String stripZeros(String s) {
        if (s.indexOf('.') < 0) {
            return s;
        }
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        return s.substring(0, end);
    }

    /** %q: a string Lua can read back, escaping quotes, backslashes, newlines, CR and NUL as Lua 5.1 does. */
    private static void quoted(ByteArrayOutputStream out, byte[] s) {
        out.write('"');
        for (byte b : s) {
            switch (b) {
                case '"', '\\', '\n' -> {
                    out.write('\\');
                    out.write(b);
                }
                case '\r' -> out.writeBytes(ascii("\\r"));
                case 0 -> out.writeBytes(ascii("\\000"));
                default -> out.write(b);
            }
        }
        out.write('"');
    }

    /** Pads to the width: spaces before (or after, with '-'), or zeros after the sign when '0' may apply. */
    private static void pad(ByteArrayOutputStream out, Spec spec, String prefix, byte[] body, boolean zeroAllowed) {
        int fill = spec.width - prefix.length() - body.length;
        if (spec.left) {
            out.writeBytes(ascii(prefix));
            out.writeBytes(body);
            repeat(out, ' ', fill);
        } else if (spec.zero && zeroAllowed) {
            out.writeBytes(ascii(prefix));
            repeat(out, '0', fill);
            out.writeBytes(body);
        } else {
            repeat(out, ' ', fill);
            out.writeBytes(ascii(prefix));
            out.writeBytes(body);
        }
    }

    private static void repeat(ByteArrayOutputStream out, char c, int times) {
        for (int k = 0; k < times; k++) {
            out.write(c);
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
