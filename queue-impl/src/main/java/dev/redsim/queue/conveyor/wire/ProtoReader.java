package dev.redsim.queue.conveyor.wire;

import java.nio.charset.StandardCharsets;

/**
 * Reads protobuf fields one by one. Unknown fields are skipped, as protobuf parsers must, so a newer writer that
 * adds fields does not break an older reader. Malformed input raises {@link IllegalArgumentException}.
 */
public final class ProtoReader {
    private final byte[] data;
    private int pos;
    private int end;
    private int lastTag;

    public ProtoReader(byte[] data) {
        this(data, 0, data.length);
    }

    private ProtoReader(byte[] data, int from, int to) {
        this.data = data;
        this.pos = from;
        this.end = to;
    }

    /** The next field number, or 0 at the end. */
    public int nextField() {
        if (pos >= end) {
            return 0;
        }
        lastTag = (int) varint();
        int field = lastTag >>> 3;
        if (field <= 0) {
            throw new IllegalArgumentException("invalid field number " + field);
        }
        return field;
    }

    public int wireType() {
        return lastTag & 7;
    }

    public long varint() {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos >= end) {
                throw new IllegalArgumentException("truncated varint");
            }
            byte b = data[pos++];
            result |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
        throw new IllegalArgumentException("varint longer than 10 bytes");
    }

    public byte[] bytes() {
        int length = lengthPrefix();
        byte[] value = new byte[length];
        System.arraycopy(data, pos, value, 0, length);
        pos += length;
        return value;
    }

    public String string() {
        return new String(bytes(), StandardCharsets.UTF_8);
    }

    /** A reader over an embedded message, advancing this one past it. */
    public ProtoReader message() {
        int length = lengthPrefix();
        ProtoReader nested = new ProtoReader(data, pos, pos + length);
        pos += length;
        return nested;
    }

    public void expect(int wireType) {
        if (wireType() != wireType) {
            throw new IllegalArgumentException("field " + (lastTag >>> 3) + " has wire type " + wireType()
                    + ", expected " + wireType);
        }
    }

    public void skip() {
        switch (wireType()) {
            case 0 -> varint();
            case 1 -> advance(8);
            case 2 -> advance(lengthPrefix());
            case 5 -> advance(4);
            default -> throw new IllegalArgumentException("unsupported wire type " + wireType());
        }
    }

    private int lengthPrefix() {
        long length = varint();
        if (length < 0 || length > end - pos) {
            throw new IllegalArgumentException("length " + length + " beyond the message");
        }
        return (int) length;
    }

    private void advance(int n) {
        if (n > end - pos) {
            throw new IllegalArgumentException("truncated field");
        }
        pos += n;
    }
}
