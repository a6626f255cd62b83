package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * cjson.decode: JSON text to Lua values, reading the text as the C library does (a NUL byte ends it),
 * with its token names and 1-based character positions in error messages.
 */
final class CjsonDecoder {
    private enum Kind {
        T_OBJ_BEGIN, T_OBJ_END, T_ARR_BEGIN, T_ARR_END, T_STRING, T_NUMBER, T_BOOLEAN, T_NULL, T_COLON,
        T_COMMA, T_END, T_WHITESPACE, T_ERROR, T_UNKNOWN
    }

    /** One token: its kind, where it starts, its value, or for T_ERROR what went wrong. */
    private static final class Token {
        Kind kind;
        int index;
        LuaValue value;
        String error;
    }

    private final CjsonConfig config;
    private final byte[] data;
    private int pos;
    private int depth;

    private CjsonDecoder(CjsonConfig config, byte[] data) {
        this.config = config;
        this.data = data;
    }

    static LuaValue decode(CjsonConfig config, LuaString json) {
        byte[] data = LuaArgs.bytes(json);
        if (data.length >= 2 && (data[0] == 0 || data[1] == 0)) {
            throw LuaArgs.error("JSON parser does not support UTF-16 or UTF-32");
        }
        CjsonDecoder decoder = new CjsonDecoder(config, data);
        Token token = decoder.next();
        LuaValue value = decoder.value(token);
        token = decoder.next();
        if (token.kind != Kind.T_END) {
            throw parseError("the end", token);
        }
        return value;
    }

    private int at(int i) {
        return CNumbers.at(data, i);
    }

    private static Kind kindOf(int c) {
        return switch (c) {
            case '{' -> Kind.T_OBJ_BEGIN;
            case '}' -> Kind.T_OBJ_END;
            case '[' -> Kind.T_ARR_BEGIN;
            case ']' -> Kind.T_ARR_END;
            case ',' -> Kind.T_COMMA;
            case ':' -> Kind.T_COLON;
            case 0 -> Kind.T_END;
            case ' ', '\t', '\n', '\r' -> Kind.T_WHITESPACE;
            case 'f', 'i', 'I', 'n', 'N', 't', '"', '+', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' ->
                    Kind.T_UNKNOWN;
            default -> Kind.T_ERROR;
        };
    }

    private Token next() {
        Token token = new Token();
        Kind kind = kindOf(at(pos));
        while (kind == Kind.T_WHITESPACE) {
            kind = kindOf(at(++pos));
        }
        token.kind = kind;
        token.index = pos;
        if (kind == Kind.T_ERROR) {
            return error(token, "invalid token");
        }
        if (kind == Kind.T_END) {
            return token;
        }
        if (kind != Kind.T_UNKNOWN) {
            pos++;
            return token;
        }
        int c = at(pos);
        if (c == '"') {
            return string(token);
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            if (config.decodeInvalidNumbers == 0 && isInvalidNumber()) {
                return error(token, "invalid number");
            }
            return number(token);
        }
        if (startsWith("true")) {
            return literal(token, Kind.T_BOOLEAN, LuaValue.TRUE, 4);
        }
        if (startsWith("false")) {
            return literal(token, Kind.T_BOOLEAN, LuaValue.FALSE, 5);
        }
        if (startsWith("null")) {
            return literal(token, Kind.T_NULL, JsonNull.INSTANCE, 4);
        }
        if (config.decodeInvalidNumbers != 0 && isInvalidNumber()) {
            return number(token);
        }
        return error(token, "invalid token");
    }

    private Token literal(Token token, Kind kind, LuaValue value, int length) {
        token.kind = kind;
        token.value = value;
        pos += length;
        return token;
    }

    private Token error(Token token, String what) {
        token.kind = Kind.T_ERROR;
        token.index = pos;
        token.error = what;
        return token;
    }

    private boolean startsWith(String word) {
        for (int k = 0; k < word.length(); k++) {
            if (at(pos + k) != word.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** Numbers strict JSON forbids but strtod reads: leading +, hex, leading zeros, inf, nan. */
    private boolean isInvalidNumber() {
        int p = pos;
        if (at(p) == '+') {
            return true;
        }
        if (at(p) == '-') {
            p++;
        }
        if (at(p) == '0') {
            int c2 = at(p + 1);
            return (c2 | 0x20) == 'x' || (c2 >= '0' && c2 <= '9');
        }
        if (at(p) <= '9') {
            return false;
        }
        return startsWithIgnoreCase(p, "inf") || startsWithIgnoreCase(p, "nan");
    }

    private boolean startsWithIgnoreCase(int p, String word) {
        for (int k = 0; k < word.length(); k++) {
            if ((at(p + k) | 0x20) != word.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private Token number(Token token) {
        CNumbers.Parsed parsed = CNumbers.strtod(data, pos);
        if (parsed.end() == pos) {
            return error(token, "invalid number");
        }
        token.kind = Kind.T_NUMBER;
        token.value = LuaArgs.number(parsed.value());
        pos = parsed.end();
        return token;
    }

    private Token string(Token token) {
        pos++;
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int c;
        while ((c = at(pos)) != '"') {
            if (c == 0) {
                return error(token, "unexpected end of string");
            }
            if (c == '\\') {
                int escape = at(pos + 1);
                if (escape == 'u') {
                    if (!unicodeEscape(text)) {
                        return error(token, "invalid unicode escape code");
                    }
                    continue;
                }
                c = unescape(escape);
                if (c < 0) {
                    return error(token, "invalid escape code");
                }
                pos++;
            }
            text.write(c);
            pos++;
        }
        pos++;
        token.kind = Kind.T_STRING;
        token.value = LuaString.valueUsing(text.toByteArray());
        return token;
    }

    private static int unescape(int c) {
        return switch (c) {
            case '"' -> '"';
            case '\\' -> '\\';
            case '/' -> '/';
            case 'b' -> '\b';
            case 't' -> '\t';
            case 'n' -> '\n';
            case 'f' -> '\f';
            case 'r' -> '\r';
            default -> -1;
        };
    }

    private int hex4(int p) {
        int value = 0;
        for (int k = 0; k < 4; k++) {
            int digit = Character.digit(at(p + k), 16);
            if (digit < 0) {
                return -1;
            }
            value = (value << 4) | digit;
        }
        return value;
    }

    /** \\uXXXX (or a surrogate pair of them) at pos, written as UTF-8; false when malformed. */
    private boolean unicodeEscape(ByteArrayOutputStream text) {
        int codepoint = hex4(pos + 2);
        int length = 6;
        if (codepoint < 0) {
            return false;
        }
        if ((codepoint & 0xF800) == 0xD800) {
            if ((codepoint & 0x400) != 0 || at(pos + 6) != '\\' || at(pos + 7) != 'u') {
                return false;
            }
            int low = hex4(pos + 8);
            if (low < 0 || (low & 0xFC00) != 0xDC00) {
                return false;
            }
            codepoint = (((codepoint & 0x3FF) << 10) | (low & 0x3FF)) + 0x10000;
            length = 12;
        }
        Utf8.write(text, codepoint);
        pos += length;
        return true;
    }

    /** An object or array being filled; nesting is an explicit stack, not Java recursion. */
    private static final class Container {
        final LuaTable table = new LuaTable();
        final boolean object;
        int index = 1;
        LuaValue key;

        Container(boolean object) {
            this.object = object;
        }
    }

    /** Reads the value that starts with token, with the C parser's order of checks and errors. */
    private LuaValue value(Token first) {
        Deque<Container> open = new ArrayDeque<>();
        Token token = first;
        while (true) {
            LuaValue value;
            switch (token.kind) {
                case T_STRING, T_NUMBER, T_BOOLEAN, T_NULL -> value = token.value;
                case T_OBJ_BEGIN, T_ARR_BEGIN -> {
                    boolean object = token.kind == Kind.T_OBJ_BEGIN;
                    descend();
                    Container container = new Container(object);
                    token = next();
                    if (token.kind == (object ? Kind.T_OBJ_END : Kind.T_ARR_END)) {
                        depth--;
                        value = container.table;
                    } else {
                        open.push(container);
                        if (object) {
                            token = keyAndColon(container, token);
                        }
                        continue;
                    }
                }
                default -> throw parseError("value", token);
            }
            // A complete value: store it in its container, closing containers that end here.
            while (true) {
                Container container = open.peek();
                if (container == null) {
                    return value;
                }
                if (container.object) {
                    container.table.rawset(container.key, value);
                } else {
                    container.table.rawset(container.index++, value);
                }
                token = next();
                if (token.kind == (container.object ? Kind.T_OBJ_END : Kind.T_ARR_END)) {
                    depth--;
                    open.pop();
                    value = container.table;
                    continue;
                }
                if (token.kind != Kind.T_COMMA) {
                    throw parseError(container.object ? "comma or object end" : "comma or array end", token);
                }
                token = next();
                if (container.object) {
                    token = keyAndColon(container, token);
                }
                break;
            }
        }
    }

    /** Reads "key" : in an object, given the key's token; answers the token after the colon. */
    private Token keyAndColon(Container container, Token token) {
        if (token.kind != Kind.T_STRING) {
            throw parseError("object key string", token);
        }
        container.key = token.value;
        Token colon = next();
        if (colon.kind != Kind.T_COLON) {
            throw parseError("colon", colon);
        }
        return next();
    }

    private void descend() {
        depth++;
        if (depth > config.decodeMaxDepth) {
            throw LuaArgs.error("Found too many nested data structures (" + depth + ") at character " + pos);
        }
    }

    private static LuaError parseError(String expected, Token token) {
        String found = token.kind == Kind.T_ERROR ? token.error : token.kind.name();
        return LuaArgs.error("Expected " + expected + " but found " + found + " at character " + (token.index + 1));
    }
}
