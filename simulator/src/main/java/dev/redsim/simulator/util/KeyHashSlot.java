package dev.redsim.simulator.util;

/**
 * Redis Cluster's key to slot mapping (keyHashSlot in cluster.c): CRC16 (XMODEM: polynomial 0x1021, initial 0) of
 * the key, or of its hash tag (the bytes between the first '{' and the next '}', when there are any), modulo 16384.
 */
public final class KeyHashSlot {
    public static final int SLOTS = 16384;

    /** The CRC16 of every byte value, computed once from the polynomial (never changed after). */
    private static final int[] TABLE = crcTable();

    private KeyHashSlot() {
    }

    public static int of(byte[] key) {
        int open = -1;
        for (int i = 0; i < key.length; i++) {
            if (key[i] == '{') {
                open = i;
                break;
            }
        }
        if (open >= 0) {
            for (int close = open + 1; close < key.length; close++) {
                if (key[close] == '}') {
                    if (close > open + 1) { // "{}" is no tag: the whole key is hashed
                        return crc16(key, open + 1, close) & (SLOTS - 1);
                    }
                    break;
                }
            }
        }
        return crc16(key, 0, key.length) & (SLOTS - 1);
    }

    static int crc16(byte[] bytes, int from, int to) {
        int crc = 0;
        for (int i = from; i < to; i++) {
            crc = ((crc << 8) ^ TABLE[((crc >>> 8) ^ bytes[i]) & 0xff]) & 0xffff;
        }
        return crc;
    }

    private static int[] crcTable() {
        int[] table = new int[256];
        for (int b = 0; b < 256; b++) {
            int crc = b << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
            table[b] = crc & 0xffff;
        }
        return table;
    }
}
