package dev.redsim.conformance.resp;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * One reply as it came off the wire: its RESP type character and its content. Two replies are equal exactly
 * when their bytes were equal, so comparing values is comparing the protocol byte for byte.
 */
public final class RespValue {
    private final char type;
    private final byte[] data;
    private final List<RespValue> children;

    private RespValue(char type, byte[] data, List<RespValue> children) {
        this.type = type;
        this.data = data;
        this.children = children;
    }

    public static RespValue scalar(char type, byte[] data) {
        return new RespValue(type, data, null);
    }

    /** A null aggregate or bulk of RESP2 ($-1 / *-1) keeps its type with null content. */
    public static RespValue nullOf(char type) {
        return new RespValue(type, null, null);
    }

    public static RespValue aggregate(char type, List<RespValue> children) {
        return new RespValue(type, null, children);
    }

    /** '+', '-', ':', '$', '*', '%', '~', '>', '_', ',', '#', '=', '(' */
    public char type() {
        return type;
    }

    public byte[] data() {
        return data;
    }

    public String text() {
        return data == null ? null : new String(data, StandardCharsets.UTF_8);
    }

    public List<RespValue> children() {
        return children;
    }

    public boolean isError() {
        return type == '-';
    }

    public boolean isAggregate() {
        return children != null;
    }

    public long asLong() {
        return Long.parseLong(text());
    }

    /** The same reply with the elements of this aggregate sorted (pairs kept together for maps). */
    public RespValue sorted() {
        if (children == null) {
            return this;
        }
        // Nested aggregates are sorted too, so [cursor, [keys...]] of a full SCAN compares as a whole.
        List<RespValue> copy = new ArrayList<>(children.size());
        for (RespValue child : children) {
            copy.add(child.sorted());
        }
        if (type == '%') {
            List<List<RespValue>> pairs = new ArrayList<>();
            for (int i = 0; i + 1 < copy.size(); i += 2) {
                pairs.add(List.of(copy.get(i), copy.get(i + 1)));
            }
            pairs.sort(Comparator.comparing(p -> p.get(0).toString()));
            copy.clear();
            pairs.forEach(copy::addAll);
        } else {
            copy.sort(Comparator.comparing(RespValue::toString));
        }
        return aggregate(type, copy);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof RespValue other)) {
            return false;
        }
        if (type != other.type || !Arrays.equals(data, other.data)) {
            return false;
        }
        return children == null ? other.children == null : children.equals(other.children);
    }

    @Override
    public int hashCode() {
        return type * 31 + Arrays.hashCode(data) + (children == null ? 0 : children.hashCode());
    }

    /** The wire form with control characters escaped, e.g. {@code *2\r\n$1\r\na\r\n:1\r\n}, for reports. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        write(sb);
        return sb.toString();
    }

    private void write(StringBuilder sb) {
        sb.append(type);
        if (children != null) {
            int n = type == '%' ? children.size() / 2 : children.size();
            sb.append(n).append("\\r\\n");
            for (RespValue child : children) {
                child.write(sb);
            }
            return;
        }
        if (data == null) {
            sb.append(type == '_' ? "" : "-1").append("\\r\\n");
            return;
        }
        if (type == '$' || type == '=') {
            sb.append(data.length).append("\\r\\n");
        }
        escape(sb, data);
        sb.append("\\r\\n");
    }

    /** Bytes as readable text: CR, LF and backslash escaped, other control and non-ASCII bytes as \xHH. */
    public static String escape(byte[] bytes) {
        StringBuilder sb = new StringBuilder();
        escape(sb, bytes);
        return sb.toString();
    }

    static void escape(StringBuilder sb, byte[] bytes) {
        for (byte b : bytes) {
            int c = b & 0xff;
            if (c == '\\') {
                sb.append("\\\\");
            } else if (c == '\r') {
                sb.append("\\r");
            } else if (c == '\n') {
                sb.append("\\n");
            } else if (c < 32 || c >= 127) {
                sb.append(String.format("\\x%02x", c));
            } else {
                sb.append((char) c);
            }
        }
    }
}
