package dev.redsim.simulator.util.rdb;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Redis's listpack (listpack.c), the compact encoding of small lists, hashes and sorted sets that DUMP writes as
 * is: a 6-byte header (total bytes, element count), entries (an integer in the smallest of seven encodings when
 * the element reads as one, else a string with a 6-bit, 12-bit or 32-bit length) each followed by its length
 * written backwards, and a final 0xFF.
 */
public final class Listpack {
    private final ByteArrayOutputStream entries = new ByteArrayOutputStream();
    private int count;

    /** Appends an element as lpAppend would encode it. */
    public void add(byte[] element) {
        int before = entries.size();
        Long integer = RdbWriter.canonicalInteger(element);
        if (integer != null) {
            writeInteger(integer);
        } else {
            writeString(element);
        }
        writeBacklen(entries.size() - before);
        count++;
    }

    /** Appends an integer element (lpAppendInteger). */
    public void addInteger(long value) {
        int before = entries.size();
        writeInteger(value);
        writeBacklen(entries.size() - before);
        count++;
    }

    /** The listpack's bytes with its header and terminator. */
    public byte[] toByteArray() {
        int total = 6 + entries.size() + 1;
        ByteArrayOutputStream out = new ByteArrayOutputStream(total);
        for (int i = 0; i < 4; i++) {
            out.write((total >>> (8 * i)) & 0xff);
        }
        int stored = Math.min(count, 65535); // LP_HDR_NUMELE_UNKNOWN beyond
        out.write(stored & 0xff);
        out.write((stored >>> 8) & 0xff);
        out.writeBytes(entries.toByteArray());
        out.write(0xFF);
        return out.toByteArray();
    }

    /** The bytes the listpack would take (for quicklist's fill rule). */
    public int size() {
        return 6 + entries.size() + 1;
    }

    public int count() {
        return count;
    }

    private void writeInteger(long v) {
        if (v >= 0 && v <= 127) {
            entries.write((int) v);
        } else if (v >= -4096 && v <= 4095) {
            long u = v < 0 ? (1L << 13) + v : v;
            entries.write(0xC0 | (int) (u >> 8));
            entries.write((int) u & 0xff);
        } else if (v >= -32768 && v <= 32767) {
            entries.write(0xF1);
            little(v, 2);
        } else if (v >= -8388608 && v <= 8388607) {
            entries.write(0xF2);
            little(v, 3);
        } else if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
            entries.write(0xF3);
            little(v, 4);
        } else {
            entries.write(0xF4);
            little(v, 8);
        }
    }

    private void little(long v, int width) {
        for (int i = 0; i < width; i++) {
            entries.write((int) (v >>> (8 * i)) & 0xff);
        }
    }

    private void writeString(byte[] s) {
        int len = s.length;
        if (len < 64) {
            entries.write(0x80 | len);
        } else if (len < 4096) {
            entries.write(0xE0 | (len >> 8));
            entries.write(len & 0xff);
        } else {
            entries.write(0xF0);
            little(len, 4);
        }
        entries.writeBytes(s);
    }

    /** lpEncodeBacklen: the entry's length in 7-bit groups, most significant first, high bits set but the first's. */
    private void writeBacklen(long l) {
        int groups = l <= 127 ? 1 : l < 16383 ? 2 : l < 2097151 ? 3 : l < 268435455 ? 4 : 5;
        for (int g = groups - 1; g >= 0; g--) {
            int bits = (int) (l >>> (7 * g)) & 127;
            entries.write(g == groups - 1 ? bits : bits | 128);
        }
    }

    /** The elements of a listpack, integers as their decimal text; Malformed when it does not parse. */
    public static List<byte[]> parse(byte[] lp) {
        if (lp.length < 7) {
            throw new RdbReader.Malformed("listpack too short");
        }
        long total = (lp[0] & 0xffL) | (lp[1] & 0xffL) << 8 | (lp[2] & 0xffL) << 16 | (lp[3] & 0xffL) << 24;
        if (total != lp.length || (lp[lp.length - 1] & 0xff) != 0xFF) {
            throw new RdbReader.Malformed("listpack size");
        }
        List<byte[]> out = new ArrayList<>();
        int p = 6;
        int end = lp.length - 1;
        while (p < end) {
            int b = lp[p] & 0xff;
            int start = p;
            if ((b & 0x80) == 0) {
                out.add(digits(b));
                p += 1;
            } else if ((b & 0xC0) == 0x80) {
                int len = b & 0x3f;
                out.add(copy(lp, p + 1, len, end));
                p += 1 + len;
            } else if ((b & 0xE0) == 0xC0) {
                need(lp, p, 2, end);
                long u = ((b & 0x1f) << 8) | (lp[p + 1] & 0xff);
                out.add(digits(u >= 4096 ? u - 8192 : u));
                p += 2;
            } else if ((b & 0xF0) == 0xE0) {
                need(lp, p, 2, end);
                int len = ((b & 0x0f) << 8) | (lp[p + 1] & 0xff);
                out.add(copy(lp, p + 2, len, end));
                p += 2 + len;
            } else if (b == 0xF0) {
                need(lp, p, 5, end);
                long len = readLittle(lp, p + 1, 4);
                if (len > end) {
                    throw new RdbReader.Malformed("listpack string");
                }
                out.add(copy(lp, p + 5, (int) len, end));
                p += 5 + (int) len;
            } else if (b >= 0xF1 && b <= 0xF4) {
                int width = b == 0xF1 ? 2 : b == 0xF2 ? 3 : b == 0xF3 ? 4 : 8;
                need(lp, p, 1 + width, end);
                long v = readLittle(lp, p + 1, width);
                int shift = 64 - 8 * width;
                out.add(digits((v << shift) >> shift));
                p += 1 + width;
            } else {
                throw new RdbReader.Malformed("listpack entry");
            }
            long entryLength = p - start;
            p += entryLength <= 127 ? 1 : entryLength < 16383 ? 2 : entryLength < 2097151 ? 3 : entryLength < 268435455 ? 4 : 5;
        }
        if (p != end) {
            throw new RdbReader.Malformed("listpack end");
        }
        return out;
    }

    private static void need(byte[] lp, int p, int n, int end) {
        if (p + n > end) {
            throw new RdbReader.Malformed("listpack entry beyond the end");
        }
    }

    private static byte[] copy(byte[] lp, int from, int len, int end) {
        if (from + len > end) {
            throw new RdbReader.Malformed("listpack string beyond the end");
        }
        return java.util.Arrays.copyOfRange(lp, from, from + len);
    }

    private static long readLittle(byte[] b, int at, int width) {
        long v = 0;
        for (int i = 0; i < width; i++) {
            v |= (b[at + i] & 0xffL) << (8 * i);
        }
        return v;
    }

    private static byte[] digits(long v) {
        return Long.toString(v).getBytes(StandardCharsets.US_ASCII);
    }
}
