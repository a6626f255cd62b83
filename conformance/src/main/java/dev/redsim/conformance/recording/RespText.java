package dev.redsim.conformance.recording;

import dev.redsim.conformance.resp.RespValue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A reply as text lines, byte for byte: the RESP wire form split at its own CRLFs, one protocol line per text
 * line, aggregate elements indented two spaces deeper than their header. Within a line, backslash, CR, LF,
 * control and non-ASCII bytes are escaped (\\ \r \n \xHH) and so is a final space (\x20, which editors strip),
 * so the bytes read back are the bytes written, while a diff of two recordings shows the changed elements:
 *
 * <pre>
 * *2
 *   $5
 *   hello
 *   :1
 * </pre>
 *
 * A bulk's length line stays: reading checks it against the data, so a hand-edited reply cannot pass unnoticed.
 */
public final class RespText {
    private static final String INDENT = "  ";

    private RespText() {
    }

    /** Appends {@code reply} as lines, each starting with {@code indent} and ending with \n. */
    public static void write(RespValue reply, String indent, StringBuilder out) {
        char type = reply.type();
        if (reply.isAggregate()) {
            List<RespValue> children = reply.children();
            line(out, indent, type + Integer.toString(type == '%' ? children.size() / 2 : children.size()));
            for (RespValue child : children) {
                write(child, indent + INDENT, out);
            }
        } else if (type == '_') {
            line(out, indent, "_");
        } else if (reply.data() == null) {
            line(out, indent, type + "-1"); // RESP2's null bulk and null array
        } else if (type == '$' || type == '=') {
            line(out, indent, type + Integer.toString(reply.data().length));
            line(out, indent, escape(reply.data()));
        } else {
            line(out, indent, type + escape(reply.data()));
        }
    }

    private static void line(StringBuilder out, String indent, String text) {
        if (!text.isEmpty()) { // an empty bulk is an empty line, without trailing spaces
            out.append(indent).append(text);
        }
        out.append('\n');
    }

    /** Reads one reply written by {@link #write} at {@code indent}, from {@code lines} at the cursor. */
    public static RespValue read(Lines lines, String indent) {
        String text = lines.take(indent);
        if (text.isEmpty()) {
            throw lines.error("a reply line without a type");
        }
        char type = text.charAt(0);
        String rest = text.substring(1);
        switch (type) {
            case '*', '~', '>', '%' -> {
                int count = number(lines, rest);
                if (count < 0) {
                    return RespValue.nullOf(type);
                }
                List<RespValue> children = new ArrayList<>();
                for (int i = 0; i < (type == '%' ? 2 * count : count); i++) {
                    children.add(read(lines, indent + INDENT));
                }
                return RespValue.aggregate(type, children);
            }
            case '$', '=' -> {
                int length = number(lines, rest);
                if (length < 0) {
                    return RespValue.nullOf(type);
                }
                byte[] data = unescape(lines, lines.takeData(indent));
                if (data.length != length) {
                    throw lines.error("the data has " + data.length + " bytes, its header says " + length);
                }
                return RespValue.scalar(type, data);
            }
            case '_' -> {
                return RespValue.nullOf('_');
            }
            case '+', '-', ':', ',', '#', '(' -> {
                return RespValue.scalar(type, unescape(lines, rest));
            }
            default -> throw lines.error("unknown reply type '" + type + "'");
        }
    }

    private static int number(Lines lines, String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw lines.error("not a length: " + text);
        }
    }

    static String escape(byte[] bytes) {
        String escaped = RespValue.escape(bytes);
        return escaped.endsWith(" ") ? escaped.substring(0, escaped.length() - 1) + "\\x20" : escaped;
    }

    static byte[] unescape(Lines lines, String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c > 126 || c < 32) {
                throw lines.error("a raw byte " + (int) c + " (bytes outside printable ASCII are written \\xHH)");
            }
            if (c != '\\') {
                out.write(c);
                continue;
            }
            char next = i + 1 < text.length() ? text.charAt(i + 1) : ' ';
            switch (next) {
                case '\\' -> out.write('\\');
                case 'r' -> out.write('\r');
                case 'n' -> out.write('\n');
                case 'x' -> {
                    if (i + 3 >= text.length()) {
                        throw lines.error("a cut \\x escape");
                    }
                    try {
                        out.write(Integer.parseInt(text.substring(i + 2, i + 4), 16));
                    } catch (NumberFormatException e) {
                        throw lines.error("a bad \\x escape");
                    }
                    i += 2;
                }
                default -> throw lines.error("an unknown escape \\" + next);
            }
            i++;
        }
        return out.toByteArray();
    }

    /** The lines of a recording with a cursor, for parsing with line numbers in errors. */
    public static final class Lines {
        private final String source;
        private final String[] lines;
        private int next;

        public Lines(String source, String text) {
            this.source = source;
            this.lines = text.split("\n", -1);
        }

        public boolean hasNext() {
            return next < lines.length;
        }

        public String peek() {
            return lines[next];
        }

        public void skip() {
            next++;
        }

        /** The next line without its indentation, which must be exactly {@code indent} (then no more spaces). */
        String take(String indent) {
            if (!hasNext()) {
                throw error("the recording ends inside a reply");
            }
            String line = lines[next++];
            if (!line.startsWith(indent) || line.startsWith(indent + " ")) {
                throw error("a reply line indented wrongly (" + indent.length() + " spaces expected)");
            }
            return line.substring(indent.length());
        }

        /** The data line of a bulk: empty for empty data, otherwise indented like its header. */
        String takeData(String indent) {
            if (hasNext() && lines[next].isEmpty()) {
                next++;
                return "";
            }
            if (!hasNext() || !lines[next].startsWith(indent)) {
                throw error("a bulk without its data line");
            }
            return lines[next++].substring(indent.length());
        }

        public IllegalArgumentException error(String message) {
            return new IllegalArgumentException(source + ":" + Math.min(next, lines.length) + ": " + message);
        }
    }
}
