package dev.redsim.simulator.util.rdb;

/** The CRC-64 Redis puts after DUMP payloads (Jones polynomial, reflected, no final xor). */
public final class Crc64 {
    private static final long[] TABLE = new long[256];

    static {
        long poly = 0x95AC9329AC4BC9B5L; // 0xad93d23594c935a9 bit-reversed
        for (int i = 0; i < 256; i++) {
            long crc = i;
            for (int b = 0; b < 8; b++) {
                crc = (crc & 1) != 0 ? (crc >>> 1) ^ poly : crc >>> 1;
            }
            TABLE[i] = crc;
        }
    }

    private Crc64() {
    }

    public static long of(byte[] data, int from, int to) {
        long crc = 0;
        for (int i = from; i < to; i++) {
            crc = TABLE[(int) ((crc ^ data[i]) & 0xff)] ^ (crc >>> 8);
        }
        return crc;
    }
}
