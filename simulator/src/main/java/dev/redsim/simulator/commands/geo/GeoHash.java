package dev.redsim.simulator.commands.geo;

/**
 * Redis's geohash (geohash.c): a position becomes two 26-bit fixed-point offsets in the longitude range
 * [-180, 180] and the latitude range [-85.05112878, 85.05112878] (Web Mercator's), interleaved latitude bit
 * first into a 52-bit integer, which is the member's sorted-set score. Decoding gives the centre of the cell.
 */
final class GeoHash {
    static final double LONG_MIN = -180;
    static final double LONG_MAX = 180;
    static final double LAT_MIN = -85.05112878;
    static final double LAT_MAX = 85.05112878;
    static final int STEP_MAX = 26;

    /** A cell: its interleaved bits and its precision in bits per coordinate. */
    record Bits(long bits, int step) {
        static final Bits ZERO = new Bits(0, 0);

        boolean isZero() {
            return bits == 0 && step == 0;
        }

        /** The 52-bit score range of the positions inside this cell starts here (geohashAlign52Bits). */
        long align52() {
            return bits << (52 - step * 2);
        }
    }

    /** A cell's bounds. */
    record Area(double lonMin, double lonMax, double latMin, double latMax) {
    }

    private GeoHash() {
    }

    /** The cell of a position at the given precision, with the given latitude range; null when outside it. */
    static Bits encode(double latMin, double latMax, double longitude, double latitude, int step) {
        if (longitude > LONG_MAX || longitude < LONG_MIN || latitude > LAT_MAX || latitude < LAT_MIN) {
            return null;
        }
        if (latitude < latMin || latitude > latMax) {
            return null;
        }
        double latOffset = (latitude - latMin) / (latMax - latMin);
        double longOffset = (longitude - LONG_MIN) / (LONG_MAX - LONG_MIN);
        latOffset *= (double) (1L << step);
        longOffset *= (double) (1L << step);
        // C converts each offset to a uint32_t, dropping the fraction
        return new Bits(interleave((long) latOffset & 0xffffffffL, (long) longOffset & 0xffffffffL), step);
    }

    /** The cell of a position in Redis's coordinate ranges (geohashEncodeWGS84). */
    static Bits encodeWgs84(double longitude, double latitude, int step) {
        return encode(LAT_MIN, LAT_MAX, longitude, latitude, step);
    }

    /** The score GEOADD stores for a position. */
    static long score(double longitude, double latitude) {
        return encodeWgs84(longitude, latitude, STEP_MAX).align52();
    }

    /** A cell's bounds in Redis's coordinate ranges; null for the zero cell. */
    static Area decode(Bits hash) {
        return decode(LAT_MIN, LAT_MAX, hash);
    }

    static Area decode(double latMin, double latMax, Bits hash) {
        if (hash.isZero()) {
            return null;
        }
        long separated = deinterleave(hash.bits());
        double latScale = latMax - latMin;
        double longScale = LONG_MAX - LONG_MIN;
        long latCell = separated & 0xffffffffL;
        long longCell = separated >>> 32;
        double cells = (double) (1L << hash.step());
        return new Area(
                LONG_MIN + (longCell * 1.0 / cells) * longScale,
                LONG_MIN + (((longCell + 1) & 0xffffffffL) * 1.0 / cells) * longScale,
                latMin + (latCell * 1.0 / cells) * latScale,
                latMin + (((latCell + 1) & 0xffffffffL) * 1.0 / cells) * latScale);
    }

    /** The position a score stands for: the centre of its 26-bit cell, clamped to the ranges. */
    static double[] position(double score) {
        Area area = decode(new Bits(toUnsignedLong(score), STEP_MAX));
        double longitude = (area.lonMin() + area.lonMax()) / 2;
        longitude = Math.min(LONG_MAX, Math.max(LONG_MIN, longitude));
        double latitude = (area.latMin() + area.latMax()) / 2;
        latitude = Math.min(LAT_MAX, Math.max(LAT_MIN, latitude));
        return new double[] {longitude, latitude};
    }

    /**
     * C's (uint64_t) conversion of a score as gcc compiles it for x86-64: below 2^63 a signed truncation (so a
     * negative score wraps), from 2^63 up a truncation of score - 2^63 with the top bit set; what the
     * instruction cannot represent (infinities, NaN, 2^64 and beyond) comes out as the "indefinite" value.
     */
    static long toUnsignedLong(double score) {
        if (score < 0x1p63) {
            return score < -0x1p63 ? Long.MIN_VALUE : (long) score;
        }
        double rest = score - 0x1p63; // also taken by NaN, whose comparison above is false
        long truncated = rest < 0x1p63 ? (long) rest : Long.MIN_VALUE;
        return truncated ^ Long.MIN_VALUE;
    }

    /** The eight neighbours, in the order Redis searches them: N, S, E, W, NE, NW, SE, SW. */
    static Bits[] neighbours(Bits hash) {
        return new Bits[] {
                moveY(hash, 1), moveY(hash, -1), moveX(hash, 1), moveX(hash, -1),
                moveY(moveX(hash, 1), 1), moveY(moveX(hash, -1), 1),
                moveY(moveX(hash, 1), -1), moveY(moveX(hash, -1), -1)};
    }

    private static Bits moveX(Bits hash, int d) {
        long x = hash.bits() & 0xaaaaaaaaaaaaaaaaL;
        long y = hash.bits() & 0x5555555555555555L;
        long zz = 0x5555555555555555L >>> (64 - hash.step() * 2);
        if (d > 0) {
            x = x + (zz + 1);
        } else {
            x = x | zz;
            x = x - (zz + 1);
        }
        x &= 0xaaaaaaaaaaaaaaaaL >>> (64 - hash.step() * 2);
        return new Bits(x | y, hash.step());
    }

    private static Bits moveY(Bits hash, int d) {
        long x = hash.bits() & 0xaaaaaaaaaaaaaaaaL;
        long y = hash.bits() & 0x5555555555555555L;
        long zz = 0xaaaaaaaaaaaaaaaaL >>> (64 - hash.step() * 2);
        if (d > 0) {
            y = y + (zz + 1);
        } else {
            y = y | zz;
            y = y - (zz + 1);
        }
        y &= 0x5555555555555555L >>> (64 - hash.step() * 2);
        return new Bits(x | y, hash.step());
    }

    /** Bits of x to the even positions, bits of y to the odd ones (x, y below 2^32). */
    static long interleave(long x, long y) {
        return spread(x) | (spread(y) << 1);
    }

    private static long spread(long v) {
        v = (v | (v << 16)) & 0x0000FFFF0000FFFFL;
        v = (v | (v << 8)) & 0x00FF00FF00FF00FFL;
        v = (v | (v << 4)) & 0x0F0F0F0F0F0F0F0FL;
        v = (v | (v << 2)) & 0x3333333333333333L;
        v = (v | (v << 1)) & 0x5555555555555555L;
        return v;
    }

    /** The even bits to the low 32 bits, the odd ones to the high 32 bits. */
    static long deinterleave(long interleaved) {
        return squeeze(interleaved) | (squeeze(interleaved >>> 1) << 32);
    }

    private static long squeeze(long v) {
        v &= 0x5555555555555555L;
        v = (v | (v >>> 1)) & 0x3333333333333333L;
        v = (v | (v >>> 2)) & 0x0F0F0F0F0F0F0F0FL;
        v = (v | (v >>> 4)) & 0x00FF00FF00FF00FFL;
        v = (v | (v >>> 8)) & 0x0000FFFF0000FFFFL;
        v = (v | (v >>> 16)) & 0x00000000FFFFFFFFL;
        return v;
    }
}
