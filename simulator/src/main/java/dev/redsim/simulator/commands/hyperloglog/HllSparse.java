package dev.redsim.simulator.commands.hyperloglog;

import java.util.Arrays;

/**
 * The sparse representation: run-length opcodes after the header, purely positional. ZERO 00xxxxxx is 1..64
 * zero registers, XZERO 01xxxxxx yyyyyyyy is 1..16384 zero registers, VAL 1vvvvvxx is 1..4 registers of value
 * 1..32. Edits follow hyperloglog.c's hllSparseSet step by step (split the opcode covering the register, then
 * merge equal neighbouring VALs within five opcodes), since the bytes GET returns depend on that exact history.
 */
final class HllSparse {
    static final int VAL_MAX_VALUE = 32;
    private static final int VAL_MAX_LEN = 4;
    private static final int ZERO_MAX_LEN = 64;

    /** Receives each register of a non-zero run. */
    interface RegisterVisitor {
        void visit(int index, int value);
    }

    private HllSparse() {
    }

    static boolean isZero(int op) {
        return (op & 0xc0) == 0;
    }

    static boolean isXzero(int op) {
        return (op & 0xc0) == 0x40;
    }

    static boolean isVal(int op) {
        return (op & 0x80) != 0;
    }

    static int zeroLen(int op) {
        return (op & 0x3f) + 1;
    }

    static int xzeroLen(int op, int next) {
        return (((op & 0x3f) << 8) | next) + 1;
    }

    static int valValue(int op) {
        return ((op >> 2) & 0x1f) + 1;
    }

    static int valLen(int op) {
        return (op & 3) + 1;
    }

    static byte val(int value, int len) {
        return (byte) (((value - 1) << 2 | (len - 1)) | 0x80);
    }

    static void putXzero(byte[] bytes, int at, int len) {
        bytes[at] = (byte) (((len - 1) >> 8) | 0x40);
        bytes[at + 1] = (byte) ((len - 1) & 0xff);
    }

    /** Writes a run of zeros as ZERO (up to 64) or XZERO; returns the bytes written. */
    private static int putZeros(byte[] seq, int at, int len) {
        if (len > ZERO_MAX_LEN) {
            putXzero(seq, at, len);
            return 2;
        }
        seq[at] = (byte) (len - 1);
        return 1;
    }

    /**
     * Raises register {@code index} to {@code count} if lower: 1 when updated, 0 when not needed, -1 when the
     * opcodes are corrupt. Promotes the HLL to dense when the value does not fit a VAL opcode or the string
     * would grow past {@code maxBytes} (hll-sparse-max-bytes).
     */
    static int set(Hll hll, int index, int count, long maxBytes) {
        if (count > VAL_MAX_VALUE) {
            return promote(hll, index, count);
        }
        if (hll.bytes.length < hll.length + 3) {
            hll.bytes = Arrays.copyOf(hll.bytes, hll.length + 3 + Math.min(hll.length + 3, 300));
        }
        byte[] b = hll.bytes;
        int end = hll.length;
        // Step 1: find the opcode covering the register.
        int p = Hll.HEADER;
        int prev = -1;
        long first = 0;
        long span = 0;
        while (p < end) {
            int op = b[p] & 0xff;
            int opLength = 1;
            if (isZero(op)) {
                span = zeroLen(op);
            } else if (isVal(op)) {
                span = valLen(op);
            } else {
                span = xzeroLen(op, hll.at(p + 1));
                opLength = 2;
            }
            if (index <= first + span - 1) {
                break;
            }
            prev = p;
            p += opLength;
            first += span;
        }
        if (span == 0 || p >= end) {
            return -1;
        }
        int op = b[p] & 0xff;
        int next = isXzero(op) ? p + 2 : p + 1;
        if (next >= end) {
            next = -1;
        }
        boolean zero = isZero(op);
        boolean xzero = isXzero(op);
        int runLength = zero ? zeroLen(op) : xzero ? xzeroLen(op, hll.at(p + 1)) : valLen(op);
        // Step 2: the trivial cases, then the split of the opcode into up to three.
        if (!zero && !xzero) {
            if (valValue(op) >= count) {
                return 0;
            }
            if (runLength == 1) {
                b[p] = val(count, 1);
                mergeNeighbours(hll, prev);
                return 1;
            }
        }
        if (zero && runLength == 1) {
            b[p] = val(count, 1);
            mergeNeighbours(hll, prev);
            return 1;
        }
        byte[] seq = new byte[5];
        int n = 0;
        long last = first + span - 1;
        if (zero || xzero) {
            if (index != first) {
                n += putZeros(seq, n, (int) (index - first));
            }
            seq[n++] = val(count, 1);
            if (index != last) {
                n += putZeros(seq, n, (int) (last - index));
            }
        } else {
            int current = valValue(op);
            if (index != first) {
                seq[n++] = val(current, (int) (index - first));
            }
            seq[n++] = val(count, 1);
            if (index != last) {
                seq[n++] = val(current, (int) (last - index));
            }
        }
        // Step 3: put the new sequence in place of the old opcode, unless the string grows too big.
        int delta = n - (xzero ? 2 : 1);
        if (delta > 0 && hll.length + delta > maxBytes) {
            return promote(hll, index, count);
        }
        if (delta != 0 && next != -1) {
            System.arraycopy(b, next, b, next + delta, end - next);
        }
        hll.length += delta;
        if (delta < 0) {
            Arrays.fill(b, hll.length, end, (byte) 0);
        }
        System.arraycopy(seq, 0, b, p, n);
        mergeNeighbours(hll, prev);
        return 1;
    }

    /**
     * Step 4: merges adjacent VAL opcodes of equal value whose lengths fit one opcode, looking at up to five
     * opcodes from the one before the change; then marks the cached cardinality stale.
     */
    private static void mergeNeighbours(Hll hll, int prev) {
        byte[] b = hll.bytes;
        int p = prev >= 0 ? prev : Hll.HEADER;
        int end = hll.length;
        int scans = 5;
        while (p < end && scans-- > 0) {
            int op = b[p] & 0xff;
            if (isXzero(op)) {
                p += 2;
                continue;
            }
            if (isZero(op)) {
                p++;
                continue;
            }
            if (p + 1 < end && isVal(b[p + 1] & 0xff)) {
                int nextOp = b[p + 1] & 0xff;
                int value = valValue(op);
                int len = valLen(op) + valLen(nextOp);
                if (value == valValue(nextOp) && len <= VAL_MAX_LEN) {
                    b[p + 1] = val(value, len);
                    System.arraycopy(b, p + 1, b, p, end - p - 1);
                    end--;
                    b[end] = 0;
                    hll.length = end;
                    continue; // the merged opcode may merge with the next one too
                }
            }
            p++;
        }
        hll.invalidateCache();
    }

    /** The dense conversion, then the register set there (which must change it: the sparse form could not). */
    private static int promote(Hll hll, int index, int count) {
        if (!hll.toDense()) {
            return -1;
        }
        HllDense.raise(hll.bytes, index, count);
        return 1;
    }

    /**
     * Visits every register of the VAL runs, in order; false when the opcodes do not cover exactly 16384
     * registers. Any opcode running past register 16383 makes the HLL corrupt at once: the reference server
     * carries the fix for CVE-2025-32023, which checks every opcode, not only VAL, before using it.
     */
    static boolean forEachRegister(Hll hll, RegisterVisitor visitor) {
        long index = 0;
        int p = Hll.HEADER;
        while (p < hll.length) {
            int op = hll.at(p);
            int len = isZero(op) ? zeroLen(op) : isXzero(op) ? xzeroLen(op, hll.at(p + 1)) : valLen(op);
            if (index + len > Hll.REGISTERS) {
                return false;
            }
            if (isVal(op)) {
                int value = valValue(op);
                for (int i = 0; i < len; i++) {
                    visitor.visit((int) index + i, value);
                }
            }
            index += len;
            p += isXzero(op) ? 2 : 1;
        }
        return index == Hll.REGISTERS;
    }

    /** Adds the sparse registers to a histogram (hllSparseRegHisto); false when they are not 16384. */
    static boolean histogram(Hll hll, int[] histogram) {
        long index = 0;
        int p = Hll.HEADER;
        while (p < hll.length) {
            int op = hll.at(p);
            if (isZero(op)) {
                index += zeroLen(op);
                histogram[0] += zeroLen(op);
                p++;
            } else if (isXzero(op)) {
                int len = xzeroLen(op, hll.at(p + 1));
                index += len;
                histogram[0] += len;
                p += 2;
            } else {
                index += valLen(op);
                histogram[valValue(op)] += valLen(op);
                p++;
            }
        }
        return index == Hll.REGISTERS;
    }

    /** PFDEBUG DECODE's text: "z:N" for ZERO, "Z:N" for XZERO, "v:value,N" for VAL, space separated. */
    static String decode(Hll hll) {
        StringBuilder out = new StringBuilder();
        int p = Hll.HEADER;
        while (p < hll.length) {
            int op = hll.at(p);
            if (out.length() > 0) {
                out.append(' ');
            }
            if (isZero(op)) {
                out.append("z:").append(zeroLen(op));
                p++;
            } else if (isXzero(op)) {
                out.append("Z:").append(xzeroLen(op, hll.at(p + 1)));
                p += 2;
            } else {
                out.append("v:").append(valValue(op)).append(',').append(valLen(op));
                p++;
            }
        }
        return out.toString();
    }
}
