package dev.redsim.queue.conveyor.wire;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The few protobuf encoding rules a job needs: varints, length-delimited fields, and proto3's "default values are
 * not written". Small on purpose: protoc and protobuf-java would be a build step and a dependency for 12 fields.
 */
public final class ProtoWriter {
    static final int VARINT = 0;
    static final int LENGTH_DELIMITED = 2;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream(64);

    public byte[] toBytes() {
        return out.toByteArray();
    }

    public void string(int field, String value) {
        if (!value.isEmpty()) {
            bytes(field, value.getBytes(StandardCharsets.UTF_8));
        }
    }

    public void bytes(int field, byte[] value) {
        if (value.length > 0) {
            tag(field, LENGTH_DELIMITED);
            rawVarint(value.length);
            out.write(value, 0, value.length);
        }
    }

    /** A nested message: always written when present, even if empty, as protobuf does for set message fields. */
    public void message(int field, byte[] encoded) {
        tag(field, LENGTH_DELIMITED);
        rawVarint(encoded.length);
        out.write(encoded, 0, encoded.length);
    }

    /** int32 and enums: negative values are sign-extended to 64 bits (ten bytes), as protobuf requires. */
    public void int32(int field, int value) {
        if (value != 0) {
            tag(field, VARINT);
            rawVarint(value);
        }
    }

    public void int64(int field, long value) {
        if (value != 0) {
            tag(field, VARINT);
            rawVarint(value);
        }
    }

    private void tag(int field, int wireType) {
        rawVarint(((long) field << 3) | wireType);
    }

    private void rawVarint(long value) {
        while ((value & ~0x7FL) != 0) {
            out.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }
}
