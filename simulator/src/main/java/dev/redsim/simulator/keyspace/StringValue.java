package dev.redsim.simulator.keyspace;

/**
 * A string value. Redis reports "int" for values that read as a 64-bit integer, "embstr" up to 44 bytes and
 * "raw" beyond, and "raw" for any string changed in place (APPEND, SETRANGE, SETBIT).
 */
public final class StringValue implements RedisValue {
    private static final int EMBSTR_LIMIT = 44;

    private final byte[] value;
    private final boolean modifiedInPlace;

    private StringValue(byte[] value, boolean modifiedInPlace) {
        this.value = value;
        this.modifiedInPlace = modifiedInPlace;
    }

    /** A value as SET stores it; the array is handed over. */
    public static StringValue of(byte[] value) {
        return new StringValue(value, false);
    }

    /** A value produced by an in-place edit (APPEND, SETRANGE, SETBIT): always "raw". */
    public static StringValue edited(byte[] value) {
        return new StringValue(value, true);
    }

    /** The bytes; callers must not change them. */
    public byte[] bytes() {
        return value;
    }

    public int length() {
        return value.length;
    }

    @Override
    public String typeName() {
        return "string";
    }

    @Override
    public String encoding() {
        if (modifiedInPlace) {
            return "raw";
        }
        if (value.length <= 20 && Numbers.parseLongStrict(value) != null) {
            return "int";
        }
        return value.length <= EMBSTR_LIMIT ? "embstr" : "raw";
    }

    @Override
    public RedisValue copy() {
        return this; // immutable
    }
}
