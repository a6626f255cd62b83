package dev.redsim.simulator.util.rdb;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads what {@link RdbWriter} writes (and what Redis writes): lengths, strings in any of their encodings and
 * binary doubles, from a byte range. Malformed input throws {@link Malformed}, which RESTORE answers with "Bad
 * data format".
 */
public final class RdbReader {
    /** The payload does not parse. */
    public static final class Malformed extends RuntimeException {
        public Malformed(String what) {
            super(what, null, false, false);
        }
    }

    private final byte[] data;
    private int pos;
    private final int end;

    public RdbReader(byte[] data, int from, int to) {
        this.data = data;
        this.pos = from;
        this.end = to;
    }

    public int readByte() {
        if (pos >= end) {
            throw new Malformed("unexpected end");
        }
        return data[pos++] & 0xff;
    }

    public boolean atEnd() {
        return pos >= end;
    }

    /** A plain length (an encoded-value marker here is malformed). */
    public long readLength() {
        int first = readByte();
        int kind = first >> 6;
        if (kind == 0) {
            return first & 0x3f;
        }
        if (kind == 1) {
            return ((first & 0x3f) << 8) | readByte();
        }
        if (first == 0x80) {
            return readBigEndian(4);
        }
        if (first == 0x81) {
            return readBigEndian(8);
        }
        throw new Malformed("bad length");
    }

    private long readBigEndian(int width) {
        long v = 0;
        for (int i = 0; i < width; i++) {
            v = (v << 8) | readByte();
        }
        return v;
    }

    /** A length that must fit an array. */
    public int readCount() {
        long n = readLength();
        if (n < 0 || n > Integer.MAX_VALUE - 8) {
            throw new Malformed("length out of range");
        }
        return (int) n;
    }

    /** A string in any encoding: verbatim, a small integer (as its decimal text) or LZF. */
    public byte[] readString() {
        int first = data.length > pos && pos < end ? data[pos] & 0xff : -1;
        if (first >= 0 && (first >> 6) == 3) {
            pos++;
            switch (first & 0x3f) {
                case 0 -> {
                    return digits((byte) readByte());
                }
                case 1 -> {
                    long v = readByte() | (readByte() << 8);
                    return digits((short) v);
                }
                case 2 -> {
                    long v = 0;
                    for (int i = 0; i < 4; i++) {
                        v |= (long) readByte() << (8 * i);
                    }
                    return digits((int) v);
                }
                case 3 -> {
                    int compressed = readCount();
                    int original = readCount();
                    if (compressed > end - pos) {
                        throw new Malformed("lzf beyond the end");
                    }
                    byte[] out = Lzf.decompress(data, pos, pos + compressed, original);
                    if (out == null) {
                        throw new Malformed("bad lzf");
                    }
                    pos += compressed;
                    return out;
                }
                default -> throw new Malformed("bad string encoding");
            }
        }
        int n = readCount();
        if (n > end - pos) {
            throw new Malformed("string beyond the end");
        }
        byte[] s = Arrays.copyOfRange(data, pos, pos + n);
        pos += n;
        return s;
    }

    /** {@code n} bytes as they are (rioRead). */
    public byte[] readRaw(int n) {
        if (n > end - pos) {
            throw new Malformed("raw bytes beyond the end");
        }
        byte[] raw = Arrays.copyOfRange(data, pos, pos + n);
        pos += n;
        return raw;
    }

    /** rdbLoadMillisecondTime: a signed 64-bit time, little-endian. */
    public long readMillis() {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v |= (long) readByte() << (8 * i);
        }
        return v;
    }

    public double readBinaryDouble() {
        long bits = 0;
        for (int i = 0; i < 8; i++) {
            bits |= (long) readByte() << (8 * i);
        }
        return Double.longBitsToDouble(bits);
    }

    private static byte[] digits(long v) {
        return Long.toString(v).getBytes(StandardCharsets.US_ASCII);
    }
}
