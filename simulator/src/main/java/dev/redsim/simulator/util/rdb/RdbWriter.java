package dev.redsim.simulator.util.rdb;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes the parts of Redis's RDB format (rdb.c) that a value is made of: lengths, strings (as small integers
 * when they read as one, LZF-compressed when longer than 20 bytes and compressible, else verbatim) and binary
 * doubles, byte for byte as Redis writes them.
 */
public final class RdbWriter {
    private static final int ENC_INT8 = 0xC0;
    private static final int ENC_INT16 = 0xC1;
    private static final int ENC_INT32 = 0xC2;
    private static final int ENC_LZF = 0xC3;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    public void writeByte(int b) {
        out.write(b);
    }

    /** Bytes already in RDB form (a value another writer serialized), as they are. */
    public void writeRaw(byte[] bytes, int from, int to) {
        out.write(bytes, from, to - from);
    }

    /**
     * rdbSaveLen: 6 bits, 14 bits, then a 32-bit or 64-bit big-endian length behind a marker byte. The length is
     * unsigned, as Redis's uint64_t (a stream's IDs, a group's unknown read counter -1).
     */
    public void writeLength(long len) {
        if (Long.compareUnsigned(len, 64) < 0) {
            out.write((int) len);
        } else if (Long.compareUnsigned(len, 16384) < 0) {
            out.write(0x40 | (int) (len >> 8));
            out.write((int) len & 0xff);
        } else if (Long.compareUnsigned(len, 0xffffffffL) <= 0) {
            out.write(0x80);
            for (int shift = 24; shift >= 0; shift -= 8) {
                out.write((int) (len >>> shift) & 0xff);
            }
        } else {
            out.write(0x81);
            for (int shift = 56; shift >= 0; shift -= 8) {
                out.write((int) (len >>> shift) & 0xff);
            }
        }
    }

    /** rdbSaveRawString: an integer encoding for short canonical integers, LZF when worth it, else verbatim. */
    public void writeString(byte[] s) {
        if (s.length <= 11) {
            Long value = canonicalInteger(s);
            if (value != null && writeEncodedInteger(value)) {
                return;
            }
        }
        if (s.length > 20) {
            byte[] compressed = Lzf.compress(s, s.length - 4); // worth it only if it saves four bytes
            if (compressed != null) {
                out.write(ENC_LZF);
                writeLength(compressed.length);
                writeLength(s.length);
                out.writeBytes(compressed);
                return;
            }
        }
        writeLength(s.length);
        out.writeBytes(s);
    }

    /** rdbSaveLongLongAsStringObject: an integer-encoded string value. */
    public void writeInteger(long value) {
        if (!writeEncodedInteger(value)) {
            byte[] digits = Long.toString(value).getBytes(StandardCharsets.US_ASCII);
            writeLength(digits.length);
            out.writeBytes(digits);
        }
    }

    /** rdbWriteRaw: bytes as they are. */
    public void writeRaw(byte[] bytes) {
        out.writeBytes(bytes);
    }

    /** rdbSaveMillisecondTime: a signed 64-bit time, little-endian. */
    public void writeMillis(long millis) {
        for (int i = 0; i < 8; i++) {
            out.write((int) (millis >>> (8 * i)) & 0xff);
        }
    }

    /** rdbSaveBinaryDoubleValue: the IEEE 754 bits, little-endian. */
    public void writeBinaryDouble(double value) {
        long bits = Double.doubleToRawLongBits(value);
        for (int i = 0; i < 8; i++) {
            out.write((int) (bits >>> (8 * i)) & 0xff);
        }
    }

    /** rdbEncodeInteger: 8, 16 or 32 bits little-endian behind a marker; false when it does not fit 32 bits. */
    private boolean writeEncodedInteger(long value) {
        int width;
        int marker;
        if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
            width = 1;
            marker = ENC_INT8;
        } else if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
            width = 2;
            marker = ENC_INT16;
        } else if (value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE) {
            width = 4;
            marker = ENC_INT32;
        } else {
            return false;
        }
        out.write(marker);
        for (int i = 0; i < width; i++) {
            out.write((int) (value >>> (8 * i)) & 0xff);
        }
        return true;
    }

    /** string2ll's strict reading (no sign on zero, no leading zeros or blanks), null otherwise. */
    static Long canonicalInteger(byte[] s) {
        if (s.length == 0 || s.length > 20) {
            return null;
        }
        try {
            String text = new String(s, StandardCharsets.US_ASCII);
            long v = Long.parseLong(text);
            return Long.toString(v).equals(text) ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public byte[] toByteArray() {
        return out.toByteArray();
    }
}
