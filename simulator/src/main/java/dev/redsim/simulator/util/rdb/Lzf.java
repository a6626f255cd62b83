package dev.redsim.simulator.util.rdb;

import java.util.Arrays;

/**
 * LZF, the compression of RDB strings, following liblzf 3.6 as Redis builds it (16-bit hash table,
 * VERY_FAST), so compressed output is the bytes Redis writes.
 */
public final class Lzf {
    private static final int HLOG = 16;
    private static final int HSIZE = 1 << HLOG;
    private static final int MAX_LIT = 1 << 5;
    private static final int MAX_OFF = 1 << 13;
    private static final int MAX_REF = (1 << 8) + (1 << 3);

    private Lzf() {
    }

    /** Compresses into at most {@code outLen} bytes; null when it does not fit (Redis then stores it raw). */
    public static byte[] compress(byte[] in, int outLen) {
        int inLen = in.length;
        if (inLen == 0 || outLen == 0) {
            return null;
        }
        byte[] out = new byte[outLen];
        int[] htab = new int[HSIZE];
        Arrays.fill(htab, -1);
        int ip = 0;
        int op = 0;
        int lit = 0;
        op++; // start run
        int hval = first(in, ip);
        while (ip < inLen - 2) {
            hval = next(hval, in, ip);
            int slot = idx(hval);
            int ref = htab[slot];
            htab[slot] = ip;
            int off;
            if (ref >= 0 && ref < ip && (off = ip - ref - 1) < MAX_OFF && ref > 0
                    && in[ref + 2] == in[ip + 2] && in[ref] == in[ip] && in[ref + 1] == in[ip + 1]) {
                int len = 2;
                int maxlen = inLen - ip - len;
                maxlen = Math.min(maxlen, MAX_REF);
                if (op + 3 + 1 >= outLen && op - (lit == 0 ? 1 : 0) + 3 + 1 >= outLen) {
                    return null;
                }
                out[op - lit - 1] = (byte) (lit - 1); // stop run
                op -= lit == 0 ? 1 : 0; // undo run if length is zero
                len = matchLength(in, ref, ip, len, maxlen);
                len -= 2;
                ip++;
                if (len < 7) {
                    out[op++] = (byte) ((off >> 8) + (len << 5));
                } else {
                    out[op++] = (byte) ((off >> 8) + (7 << 5));
                    out[op++] = (byte) (len - 7);
                }
                out[op++] = (byte) off;
                lit = 0;
                op++; // start run
                ip += len + 1;
                if (ip >= inLen - 2) {
                    break;
                }
                ip -= 2;
                hval = first(in, ip);
                hval = next(hval, in, ip);
                htab[idx(hval)] = ip;
                ip++;
                hval = next(hval, in, ip);
                htab[idx(hval)] = ip;
                ip++;
            } else {
                if (op >= outLen) {
                    return null;
                }
                lit++;
                out[op++] = in[ip++];
                if (lit == MAX_LIT) {
                    out[op - lit - 1] = (byte) (lit - 1);
                    lit = 0;
                    op++;
                }
            }
        }
        if (op + 3 > outLen) {
            return null;
        }
        while (ip < inLen) {
            lit++;
            out[op++] = in[ip++];
            if (lit == MAX_LIT) {
                out[op - lit - 1] = (byte) (lit - 1);
                lit = 0;
                op++;
            }
        }
        out[op - lit - 1] = (byte) (lit - 1);
        op -= lit == 0 ? 1 : 0;
        return Arrays.copyOf(out, op);
    }

    /** liblzf's match loop: 16 unrolled steps when far from the end, then byte by byte up to maxlen. */
    private static int matchLength(byte[] in, int ref, int ip, int len, int maxlen) {
        if (maxlen > 16) {
            for (int k = 0; k < 16; k++) {
                len++;
                if (in[ref + len] != in[ip + len]) {
                    return len;
                }
            }
        }
        do {
            len++;
        } while (len < maxlen && in[ref + len] == in[ip + len]);
        return len;
    }

    private static int first(byte[] in, int p) {
        return ((in[p] & 0xff) << 8) | (in[p + 1] & 0xff);
    }

    private static int next(int v, byte[] in, int p) {
        return (v << 8) | (in[p + 2] & 0xff);
    }

    private static int idx(int h) {
        return ((h >>> (3 * 8 - HLOG)) - h * 5) & (HSIZE - 1);
    }

    /** Decompresses to exactly {@code outLen} bytes; null when the data is corrupt. */
    public static byte[] decompress(byte[] in, int from, int to, int outLen) {
        byte[] out = new byte[outLen];
        int ip = from;
        int op = 0;
        while (ip < to) {
            int ctrl = in[ip++] & 0xff;
            if (ctrl < (1 << 5)) {
                ctrl++;
                if (op + ctrl > outLen || ip + ctrl > to) {
                    return null;
                }
                System.arraycopy(in, ip, out, op, ctrl);
                op += ctrl;
                ip += ctrl;
            } else {
                int len = ctrl >> 5;
                int ref = op - ((ctrl & 0x1f) << 8) - 1;
                if (ip >= to) {
                    return null;
                }
                if (len == 7) {
                    len += in[ip++] & 0xff;
                    if (ip >= to) {
                        return null;
                    }
                }
                ref -= in[ip++] & 0xff;
                len += 2;
                if (op + len > outLen || ref < 0) {
                    return null;
                }
                for (int i = 0; i < len; i++) {
                    out[op++] = out[ref++];
                }
            }
        }
        return op == outLen ? out : null;
    }
}
