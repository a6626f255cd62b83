package dev.redsim.simulator.keyspace;

/**
 * A string value. Redis reports "int" for values that read as a 64-bit integer, "embstr" up to 44 bytes and
 * "raw" beyond, and "raw" for any string changed in place (APPEND, SETRANGE, SETBIT).
 */
public final class StringValue implements RedisValue {
    private static final int EMBSTR_LIMIT = 44;

    private final byte[] value;
    private final boolean modifiedInPlace;
    /** False for strings Redis creates without trying the int encoding (INCRBYFLOAT's result). */
    private final boolean intEncodable;

    private StringValue(byte[] value, boolean modifiedInPlace) {
        this(value, modifiedInPlace, true);
    }

    private StringValue(byte[] value, boolean modifiedInPlace, boolean intEncodable) {
        this.value = value;
        this.modifiedInPlace = modifiedInPlace;
        this.intEncodable = intEncodable;
    }

    /** A value as SET stores it; the array is handed over. */
    public static StringValue of(byte[] value) {
        return new StringValue(value, false);
    }

    /** A value produced by an in-place edit (APPEND, SETRANGE, SETBIT): always "raw". */
    public static StringValue edited(byte[] value) {
        return new StringValue(value, true);
    }

    /**
     * A value Redis builds with createStringObject and stores without tryObjectEncoding (INCRBYFLOAT):
     * "embstr" up to 44 bytes, "raw" beyond, never "int".
     */
    public static StringValue unencoded(byte[] value) {
        return new StringValue(value, false, false);
    }

    /**
     * The bytes of an edited ("raw") value for changing them in place (SETBIT on an already sized string), or
     * null when this value may be shared and must be replaced instead. Edited values own their array: copy()
     * clones it.
     */
    public byte[] bytesForUpdate() {
        return modifiedInPlace ? value : null;
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
        if (intEncodable && value.length <= 20 && Numbers.parseLongStrict(value) != null) {
            return "int";
        }
        return value.length <= EMBSTR_LIMIT ? "embstr" : "raw";
    }

    @Override
    public RedisValue copy() {
        // Edited values may later change in place (bytesForUpdate), so a copy gets its own array.
        return modifiedInPlace ? new StringValue(value.clone(), true) : this;
    }
}
