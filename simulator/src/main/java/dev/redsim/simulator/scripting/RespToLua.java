package dev.redsim.simulator.scripting;

import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A command's reply, as RESP written for the script's own client, turned into Lua values with Redis's
 * conversion table (integers to numbers, nulls to false in RESP2 and nil in RESP3, status and error replies to
 * {ok=} and {err=} tables, RESP3 maps, sets, doubles, booleans and big numbers to their table forms).
 *
 * <p>Reads the reply's bytes in place (one array, a position that moves on): every redis.call of every script comes
 * through here, and the only objects made are the Lua values themselves and their strings' bytes.
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

    private final byte[] in;
    private int at;

    private RespToLua(byte[] in, int from) {
        this.in = in;
        this.at = from;
    }

    /** Whether the reply starting at {@code from} is an error; its text (without '-') then follows. */
    static boolean isError(byte[] in, int from) {
        return in[from] == '-';
    }

    /** The text of the error reply starting at {@code from}, without its '-' and line end. */
    static String errorText(byte[] in, int from) {
        RespToLua reader = new RespToLua(in, from + 1);
        return new String(reader.line(), StandardCharsets.UTF_8);
    }

    /** The Lua value of the one reply starting at {@code from}. */
    static LuaValue read(byte[] in, int from) {
        return new RespToLua(in, from).value();
    }

    private LuaValue value() {
        byte type = in[at++];
        switch (type) {
            case ':':
                return LuaValue.valueOf((double) number());
            case '$': {
                int length = (int) number();
                if (length < 0) {
                    return LuaValue.FALSE;
                }
                return LuaString.valueUsing(bytes(length));
            }
            case '*': {
                int length = (int) number();
                if (length < 0) {
                    return LuaValue.FALSE;
                }
                LuaTable array = new LuaTable(length, 0);
                for (int i = 1; i <= length; i++) {
                    array.rawset(i, value());
                }
                return array;
            }
            case '+':
                return single(OK, LuaString.valueUsing(line()));
            case '-':
                return countedError(LuaString.valueUsing(line()));
            case '_':
                line();
                return LuaValue.NIL;
            case '#':
                return LuaValue.valueOf(text().equals("t"));
            case ',':
                return single(DOUBLE, LuaValue.valueOf(parseDouble(text())));
            case '(':
                return single(BIG_NUMBER, LuaString.valueUsing(line()));
            case '=': {
                byte[] body = bytes((int) number());
                LuaTable verbatim = new LuaTable();
                verbatim.rawset(FORMAT, LuaString.valueOf(new String(body, 0, 3, StandardCharsets.US_ASCII)));
                verbatim.rawset(STRING, LuaString.valueUsing(Arrays.copyOfRange(body, 4, body.length)));
                return single(VERBATIM, verbatim);
            }
            case '%': {
                long pairs = number();
                LuaTable map = new LuaTable();
                for (long i = 0; i < pairs; i++) {
                    LuaValue key = value();
                    map.rawset(key, value());
                }
                return single(MAP, map);
            }
            case '~': {
                long length = number();
                LuaTable set = new LuaTable();
                for (long i = 0; i < length; i++) {
                    set.rawset(value(), LuaValue.TRUE);
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

    private byte[] bytes(int length) {
        byte[] body = Arrays.copyOfRange(in, at, at + length);
        at += length + 2;
        return body;
    }

    /** The integer a RESP line holds (an integer reply, a length): a command writes a well-formed long there. */
    private long number() {
        boolean negative = in[at] == '-';
        if (negative) {
            at++;
        }
        long value = 0;
        byte b;
        while ((b = in[at++]) != '\r') {
            value = value * 10 - (b - '0'); // counted negative, so that Long.MIN_VALUE fits
        }
        at++;
        return negative ? value : -value;
    }

    private String text() {
        return new String(line(), StandardCharsets.US_ASCII);
    }

    private byte[] line() {
        int end = at;
        while (in[end] != '\r') {
            end++;
        }
        byte[] body = Arrays.copyOfRange(in, at, end);
        at = end + 2;
        return body;
    }
}
