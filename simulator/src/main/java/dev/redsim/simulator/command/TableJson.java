package dev.redsim.simulator.command;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the JSON of the command table resource: objects (in their order), arrays, strings, integers, booleans
 * and null. Only what the generated file holds, so no floating point numbers; the simulator depends on no JSON
 * library.
 */
final class TableJson {
    private final String text;
    /** Object fields whose values are stepped over, not built (the docs, until COMMAND DOCS asks: decision 0026). */
    private final Set<String> skipped;
    private int pos;

    private TableJson(String text, Set<String> skipped) {
        this.text = text;
        this.skipped = skipped;
    }

    /** A Map (keys in file order), List, String, Long, Boolean or null. */
    static Object parse(String text) {
        return parse(text, Set.of());
    }

    /** As {@link #parse(String)}, leaving out of every object the fields named in {@code skipped}. */
    static Object parse(String text, Set<String> skipped) {
        TableJson reader = new TableJson(text, skipped);
        Object value = reader.value();
        reader.skipSpace();
        if (reader.pos != text.length()) {
            throw reader.error("trailing text");
        }
        return value;
    }

    private Object value() {
        skipSpace();
        if (pos >= text.length()) {
            throw error("unexpected end");
        }
        char c = text.charAt(pos);
        switch (c) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                return integer();
        }
    }

    private Map<String, Object> object() {
        Map<String, Object> result = new LinkedHashMap<>();
        pos++;
        skipSpace();
        if (peek() == '}') {
            pos++;
            return result;
        }
        while (true) {
            skipSpace();
            String key = string();
            skipSpace();
            expect(':');
            if (skipped.contains(key)) {
                skipValue();
            } else {
                result.put(key, value());
            }
            skipSpace();
            if (peek() == ',') {
                pos++;
            } else {
                expect('}');
                return result;
            }
        }
    }

    private List<Object> array() {
        List<Object> result = new ArrayList<>();
        pos++;
        skipSpace();
        if (peek() == ']') {
            pos++;
            return result;
        }
        while (true) {
            result.add(value());
            skipSpace();
            if (peek() == ',') {
                pos++;
            } else {
                expect(']');
                return result;
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return sb.toString();
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char escaped = text.charAt(pos++);
            switch (escaped) {
                case 'n' -> sb.append('\n');
                case 't' -> sb.append('\t');
                case 'r' -> sb.append('\r');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'u' -> {
                    sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    pos += 4;
                }
                default -> sb.append(escaped); // \" \\ \/
            }
        }
    }

    /** Steps over one value without building it: brackets are counted outside strings, strings end at an unescaped quote. */
    private void skipValue() {
        skipSpace();
        int depth = 0;
        do {
            if (pos >= text.length()) {
                throw error("unexpected end");
            }
            char c = text.charAt(pos);
            if (c == '"') {
                skipString();
                continue;
            }
            if (depth == 0 && (c == ',' || c == '}' || c == ']')) {
                return; // the end of a number or literal
            }
            if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
            }
            pos++;
        } while (depth > 0 || !atValueEnd());
    }

    private boolean atValueEnd() {
        skipSpace();
        char c = peek();
        return c == ',' || c == '}' || c == ']' || c == '\0';
    }

    private void skipString() {
        pos++;
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return;
            }
            if (c == '\\') {
                pos++;
            }
        }
    }

    private Long integer() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
            pos++;
        }
        if (start == pos || (pos == start + 1 && text.charAt(start) == '-')) {
            throw error("unexpected character");
        }
        return Long.parseLong(text.substring(start, pos));
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, pos)) {
            throw error("unexpected character");
        }
        pos += word.length();
        return value;
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("command table JSON: " + what + " at offset " + pos);
    }
}
