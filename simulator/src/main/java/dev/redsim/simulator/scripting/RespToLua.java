package dev.redsim.simulator.scripting;

import io.netty.buffer.ByteBuf;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

import java.nio.charset.StandardCharsets;

/**
 * A command's reply, as RESP written for the script's own client, turned into Lua values with Redis's
 * conversion table (integers to numbers, nulls to false in RESP2 and nil in RESP3, status and error replies to
 * {ok=} and {err=} tables, RESP3 maps, sets, doubles, booleans and big numbers to their table forms).
 */
final class RespToLua {
    private static final LuaString OK = LuaString.valueOf("ok");
    private static final LuaString ERR = LuaString.valueOf("err");
    private static final LuaString MAP = LuaString.valueOf("map");
    private static final LuaString SET = LuaString.valueOf("set");
    private static final LuaString DOUBLE = LuaString.valueOf("double");
    private static final LuaString BIG_NUMBER = LuaString.valueOf("big_number");
    private static final LuaString VERBATIM = LuaString.valueOf("verbatim_string");
    private static final LuaString FORMAT = LuaString.valueOf("format");
    private static final LuaString STRING = LuaString.valueOf("string");

    private RespToLua() {
    }

    /** Whether the reply is an error; its text (without '-') then follows. */
    static boolean isError(ByteBuf in) {
        return in.getByte(in.readerIndex()) == '-';
    }

    /** The text of an error reply, without its '-' and line end. */
    static String errorText(ByteBuf in) {
        in.skipBytes(1);
        return new String(line(in), StandardCharsets.UTF_8);
    }

    static LuaValue read(ByteBuf in) {
        byte type = in.readByte();
        switch (type) {
            case ':':
                return LuaValue.valueOf((double) number(in));
            case '$': {
                int length = (int) number(in);
                if (length < 0) {
                    return LuaValue.FALSE;
                }
                return LuaString.valueUsing(bytes(in, length));
            }
            case '*': {
                int length = (int) number(in);
                if (length < 0) {
                    return LuaValue.FALSE;
                }
                LuaTable array = new LuaTable(length, 0);
                for (int i = 1; i <= length; i++) {
                    array.rawset(i, read(in));
                }
                return array;
            }
            case '+':
                return single(OK, LuaString.valueUsing(line(in)));
            case '-':
                return countedError(LuaString.valueUsing(line(in)));
            case '_':
                line(in);
                return LuaValue.NIL;
            case '#':
                return LuaValue.valueOf(text(in).equals("t"));
            case ',':
                return single(DOUBLE, LuaValue.valueOf(parseDouble(text(in))));
            case '(':
                return single(BIG_NUMBER, LuaString.valueUsing(line(in)));
            case '=': {
                byte[] body = bytes(in, Integer.parseInt(text(in)));
                LuaTable verbatim = new LuaTable();
                verbatim.rawset(FORMAT, LuaString.valueOf(new String(body, 0, 3, StandardCharsets.US_ASCII)));
                verbatim.rawset(STRING, LuaString.valueUsing(java.util.Arrays.copyOfRange(body, 4, body.length)));
                return single(VERBATIM, verbatim);
            }
            case '%': {
                int pairs = Integer.parseInt(text(in));
                LuaTable map = new LuaTable();
                for (int i = 0; i < pairs; i++) {
                    LuaValue key = read(in);
                    map.rawset(key, read(in));
                }
                return single(MAP, map);
            }
            case '~': {
                int length = Integer.parseInt(text(in));
                LuaTable set = new LuaTable();
                for (int i = 0; i < length; i++) {
                    set.rawset(read(in), LuaValue.TRUE);
                }
                return single(SET, set);
            }
            default:
                throw new IllegalStateException("unexpected reply type '" + (char) type + "' for a script");
        }
    }

    private static double parseDouble(String text) {
        return switch (text) {
            case "inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            case "nan" -> Double.NaN;
            default -> Double.parseDouble(text);
        };
    }

    /**
     * The error table of an error reply a command gave (or a refusal redis.call met), marked as Redis marks it: its
     * error was counted in INFO errorstats already, so returning the table from the script does not count it again.
     * The mark is a field scripts can see, as in Redis.
     */
    static LuaTable countedError(LuaValue message) {
        LuaTable table = single(ERR, message);
        table.rawset(IGNORE_ERROR_STATS, LuaValue.TRUE);
        return table;
    }

    static final LuaString IGNORE_ERROR_STATS = LuaString.valueOf("ignore_error_stats_update");

    static LuaTable single(LuaValue key, LuaValue value) {
        LuaTable table = new LuaTable();
        table.rawset(key, value);
        return table;
    }

    private static byte[] bytes(ByteBuf in, int length) {
        byte[] body = new byte[length];
        in.readBytes(body);
        in.skipBytes(2);
        return body;
    }

    /**
     * The integer a RESP line holds (an integer reply, a length), read in place: the line a command wrote is a
     * well-formed long, and every reply of every redis.call has a few of them.
     */
    private static long number(ByteBuf in) {
        boolean negative = in.getByte(in.readerIndex()) == '-';
        if (negative) {
            in.skipBytes(1);
        }
        long value = 0;
        byte b;
        while ((b = in.readByte()) != '\r') {
            value = value * 10 - (b - '0'); // counted negative, so that Long.MIN_VALUE fits
        }
        in.skipBytes(1);
        return negative ? value : -value;
    }

    private static String text(ByteBuf in) {
        return new String(line(in), StandardCharsets.US_ASCII);
    }

    private static byte[] line(ByteBuf in) {
        int end = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\r');
        byte[] body = new byte[end - in.readerIndex()];
        in.readBytes(body);
        in.skipBytes(2);
        return body;
    }
}
