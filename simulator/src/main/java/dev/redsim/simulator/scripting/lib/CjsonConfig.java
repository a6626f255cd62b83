package dev.redsim.simulator.scripting.lib;

/** The settings of one cjson instance (cjson.new() makes another), with Redis's defaults. */
final class CjsonConfig {
    /** encode_invalid_numbers settings: refuse, write nan/inf, write null. */
    static final int INVALID_OFF = 0;
    static final int INVALID_ON = 1;
    static final int INVALID_NULL = 2;

    int sparseConvert = 0;
    int sparseRatio = 2;
    int sparseSafe = 10;
    int encodeMaxDepth = 1000;
    int decodeMaxDepth = 1000;
    int encodeInvalidNumbers = INVALID_OFF;
    int decodeInvalidNumbers = 1;
    int encodeKeepBuffer = 1;
    int encodeNumberPrecision = 14;
}
