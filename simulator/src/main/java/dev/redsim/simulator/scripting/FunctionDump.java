package dev.redsim.simulator.scripting;

import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.util.rdb.Crc64;
import dev.redsim.simulator.util.rdb.Lzf;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The FUNCTION DUMP payload as Redis 7.0 writes it: per library the RDB function opcode and the library code
 * as an RDB string (LZF-compressed when longer than 20 bytes and compressible), then the RDB version (2 bytes,
 * little-endian) and the CRC-64 of everything before it (8 bytes, little-endian).
 */
final class FunctionDump {
    private static final int OPCODE_FUNCTION2 = 245;
    private static final int OPCODE_FUNCTION_PRE_GA = 246;
    private static final int RDB_VERSION = 10;
    private static final int ENC_LZF = 0xC3;

    private FunctionDump() {
    }

    static byte[] write(List<byte[]> codes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] code : codes) {
            out.write(OPCODE_FUNCTION2);
            writeString(out, code);
        }
        out.write(RDB_VERSION);
        out.write(0);
        byte[] body = out.toByteArray();
        long crc = Crc64.of(body, 0, body.length);
        for (int i = 0; i < 8; i++) {
            out.write((int) (crc >>> (8 * i)) & 0xff);
        }
        return out.toByteArray();
    }

    private static void writeString(ByteArrayOutputStream out, byte[] s) {
        if (s.length > 20) {
            byte[] compressed = Lzf.compress(s, s.length - 4);
            if (compressed != null) {
                out.write(ENC_LZF);
                writeLength(out, compressed.length);
                writeLength(out, s.length);
                out.writeBytes(compressed);
                return;
            }
        }
        writeLength(out, s.length);
        out.writeBytes(s);
    }

    private static void writeLength(ByteArrayOutputStream out, long len) {
        if (len < 64) {
            out.write((int) len);
        } else if (len < 16384) {
            out.write(0x40 | (int) (len >> 8));
            out.write((int) len & 0xff);
        } else {
            out.write(0x80);
            for (int shift = 24; shift >= 0; shift -= 8) {
                out.write((int) (len >>> shift) & 0xff);
            }
        }
    }

    /** The library codes of a payload, after its version and checksum were verified. */
    static List<byte[]> read(byte[] payload) {
        int len = payload.length;
        if (len < 10) {
            throw checksumError();
        }
        int version = (payload[len - 10] & 0xff) | (payload[len - 9] & 0xff) << 8;
        long crc = 0;
        for (int i = 0; i < 8; i++) {
            crc |= (payload[len - 8 + i] & 0xffL) << (8 * i);
        }
        if (version > RDB_VERSION || crc != Crc64.of(payload, 0, len - 8)) {
            throw checksumError();
        }
        List<byte[]> codes = new ArrayList<>();
        int[] pos = {0};
        while (len - pos[0] > 10) {
            int type = payload[pos[0]++] & 0xff;
            if (type == OPCODE_FUNCTION_PRE_GA) {
                throw new RedisError("ERR Pre-GA function format not supported, please use a GA version");
            }
            if (type != OPCODE_FUNCTION2) {
                throw new RedisError("ERR given type is not a function");
            }
            byte[] code = readString(payload, pos, len - 10);
            if (code == null) {
                throw new RedisError("ERR Failed loading library payload");
            }
            codes.add(code);
        }
        return codes;
    }

    private static RedisError checksumError() {
        return new RedisError("ERR DUMP payload version or checksum are wrong");
    }

    private static byte[] readString(byte[] p, int[] pos, int end) {
        if (pos[0] >= end) {
            return null;
        }
        int first = p[pos[0]] & 0xff;
        if ((first & 0xC0) == 0xC0) {
            pos[0]++;
            int enc = first & 0x3f;
            if (enc == 3) {
                long clen = readLength(p, pos, end);
                long olen = readLength(p, pos, end);
                if (clen < 0 || olen < 0 || pos[0] + clen > end) {
                    return null;
                }
                byte[] out = Lzf.decompress(p, pos[0], pos[0] + (int) clen, (int) olen);
                pos[0] += (int) clen;
                return out;
            }
            int width = enc == 0 ? 1 : enc == 1 ? 2 : enc == 2 ? 4 : -1;
            if (width < 0 || pos[0] + width > end) {
                return null;
            }
            long v = 0;
            for (int i = 0; i < width; i++) {
                v |= (p[pos[0] + i] & 0xffL) << (8 * i);
            }
            v = width == 1 ? (byte) v : width == 2 ? (short) v : (int) v;
            pos[0] += width;
            return Long.toString(v).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        }
        long n = readLength(p, pos, end);
        if (n < 0 || pos[0] + n > end) {
            return null;
        }
        byte[] s = java.util.Arrays.copyOfRange(p, pos[0], pos[0] + (int) n);
        pos[0] += (int) n;
        return s;
    }

    private static long readLength(byte[] p, int[] pos, int end) {
        if (pos[0] >= end) {
            return -1;
        }
        int first = p[pos[0]++] & 0xff;
        switch (first >> 6) {
            case 0:
                return first & 0x3f;
            case 1:
                if (pos[0] >= end) {
                    return -1;
                }
                return ((first & 0x3f) << 8) | (p[pos[0]++] & 0xff);
            default:
                int width = first == 0x80 ? 4 : first == 0x81 ? 8 : -1;
                if (width < 0 || pos[0] + width > end) {
                    return -1;
                }
                long v = 0;
                for (int i = 0; i < width; i++) {
                    v = (v << 8) | (p[pos[0]++] & 0xff);
                }
                return v > Integer.MAX_VALUE ? -1 : v;
        }
    }
}
