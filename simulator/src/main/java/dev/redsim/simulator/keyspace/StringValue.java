package dev.redsim.simulator.keyspace;

import dev.redsim.simulator.util.ChunkedBytes;
import dev.redsim.simulator.util.rdb.RdbWriter;

import static dev.redsim.simulator.keyspace.MemoryLayout.ROBJ;
import static dev.redsim.simulator.keyspace.MemoryLayout.jemalloc;
import static dev.redsim.simulator.keyspace.MemoryLayout.sds;

/**
 * A string value. Redis reports "int" for values that read as a 64-bit integer, "embstr" up to 44 bytes and
 * "raw" beyond, and "raw" for any string changed in place (APPEND, SETRANGE, SETBIT). A big value stored as it
 * arrived, in chunks, is a {@link ChunkedStringValue} (decision 0048): it is put in one array only when a reader needs
 * it so; the readers that can take it in pieces (GET and its kind, GETRANGE, STRLEN) ask {@link #chunks()} first.
 */
public sealed class StringValue extends AccessTracked implements RedisValue permits ChunkedStringValue {
    private static final int EMBSTR_LIMIT = 44;

    /** Sds preallocation: double small strings that grow, add 1 MB to big ones (SDS_MAX_PREALLOC). */
    private static final int MAX_PREALLOC = 1024 * 1024;

    /**
     * The bytes; only the first {@code length} count. Only edited values have spare room after them (always
     * zeros), so SETBIT/SETRANGE can grow a string in amortized O(1) as Redis's sdsMakeRoomFor does. Null while a
     * {@link ChunkedStringValue} is only in its chunks (read it through {@link #whole()}).
     */
    private byte[] value;
    private int length;
    /** Set for a value changed in place (always "raw"); a flag bit of AccessTracked's word, not a field of its own. */
    private static final int MODIFIED_IN_PLACE = FIRST_FLAG;
    /** Set for strings Redis creates without trying the int encoding (INCRBYFLOAT's result). */
    private static final int NOT_INT_ENCODABLE = FIRST_FLAG << 1;
    /**
     * Whether the bytes were looked at as an integer, and what was found: an unedited value never changes, so its
     * encoding is worked out once (as Redis's tryObjectEncoding decides it once, when the value is stored), not at
     * every OBJECT ENCODING, MEMORY USAGE or used_memory measurement.
     */
    private static final int INT_CHECKED = FIRST_FLAG << 2;
    private static final int INT_TEXT = FIRST_FLAG << 3;

    private StringValue(byte[] value, boolean modifiedInPlace) {
        this(value, modifiedInPlace, true);
    }

    private StringValue(byte[] value, boolean modifiedInPlace, boolean intEncodable) {
        this.value = value;
        this.length = value.length;
        if (modifiedInPlace) {
            setFlag(MODIFIED_IN_PLACE);
        }
        if (!intEncodable) {
            setFlag(NOT_INT_ENCODABLE);
        }
    }

    /** A value kept in chunks ({@link ChunkedStringValue}): its bytes come from {@link #chunks()} until needed whole. */
    StringValue(int length) {
        this.length = length;
    }

    /** The bytes in one array: a value still in chunks is put in one now, and keeps only that. */
    private byte[] whole() {
        byte[] bytes = value;
        if (bytes == null) {
            bytes = value = chunks().toArray();
            chunksGathered();
        }
        return bytes;
    }

    /** The value's chunks while it is kept in them (a {@link ChunkedStringValue} not yet gathered), else null. */
    public ChunkedBytes chunks() {
        return null;
    }

    /** The value was put in one array: its chunks can go. */
    void chunksGathered() {
    }

    private boolean modifiedInPlace() {
        return flag(MODIFIED_IN_PLACE);
    }

    private boolean intEncodable() {
        return !flag(NOT_INT_ENCODABLE);
    }

    /** A value as SET stores it; the array is handed over. */
    public static StringValue of(byte[] value) {
        return new StringValue(value, false);
    }

    /** A big value as SET stores it when it arrived in chunks: kept in them. */
    public static StringValue of(ChunkedBytes value) {
        return new ChunkedStringValue(value);
    }

    /**
     * A number as INCR and its kind store it: its text, known to be int-encoded (Redis keeps the long itself, so
     * neither the store nor a later read parses it again).
     */
    public static StringValue ofInteger(long number) {
        StringValue value = new StringValue(Numbers.toBytes(number), false);
        value.setFlag(INT_CHECKED | INT_TEXT);
        return value;
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
     * A value to edit in place: this one when it is already an edited ("raw") value, which owns its array (copy()
     * clones it), else a raw copy of {@code current} (null: a new empty string), as Redis's dbUnshareStringValue.
     * The caller stores a returned copy under the key.
     */
    public static StringValue editable(StringValue current) {
        if (current == null) {
            return new StringValue(new byte[0], true);
        }
        if (current.modifiedInPlace()) {
            return current;
        }
        ChunkedBytes chunks = current.chunks();
        return new StringValue(chunks != null ? chunks.toArray() : current.value.clone(), true);
    }

    /**
     * Makes an edited value at least {@code size} bytes long, padding with zero bytes (sdsgrowzero); returns
     * true when the length changed. Growth keeps spare room so repeated growth costs amortized O(1).
     */
    public boolean growTo(int size) {
        if (!modifiedInPlace()) {
            throw new IllegalStateException("only edited strings grow in place");
        }
        if (size <= length) {
            return false;
        }
        if (size > value.length) {
            int capacity = length == 0 ? size : (size < MAX_PREALLOC ? size * 2 : size + MAX_PREALLOC);
            value = java.util.Arrays.copyOf(value, Math.max(size, capacity));
        }
        length = size;
        return true;
    }

    /**
     * The array to write into for an edited value (after {@link #growTo}); only the first {@link #length()}
     * bytes belong to the value.
     */
    public byte[] array() {
        return modifiedInPlace() ? value : null;
    }

    /** The bytes, exactly {@link #length()} long; callers must not change them. */
    public byte[] bytes() {
        if (whole().length != length) {
            value = java.util.Arrays.copyOf(value, length); // drop spare room once someone reads the whole value
        }
        return value;
    }

    /** The backing array for reading without a copy; only the first {@link #length()} bytes count. */
    public byte[] readArray() {
        return whole();
    }

    public int length() {
        return length;
    }

    @Override
    public String typeName() {
        return "string";
    }

    @Override
    public String encoding() {
        if (modifiedInPlace()) {
            return "raw";
        }
        if (intEncodable() && isIntegerText()) {
            return "int";
        }
        return length <= EMBSTR_LIMIT ? "embstr" : "raw";
    }

    /** Whether the bytes read as a 64-bit integer (string2ll), remembered after the first look. */
    private boolean isIntegerText() {
        if (modifiedInPlace()) {
            return length <= 20 && Numbers.parseLongStrict(bytes()) != null; // edits change the bytes: no memory
        }
        if (!flag(INT_CHECKED)) {
            setFlag(length <= 20 && Numbers.parseLongStrict(whole()) != null ? INT_CHECKED | INT_TEXT : INT_CHECKED);
        }
        return flag(INT_TEXT);
    }

    /**
     * The number of a value known to be an integer ({@link #isInteger()}), as INCR reads it (getLongLongFromObject):
     * an unedited value's bytes are checked once in its life, then read without checks.
     */
    public long longValue() {
        return Numbers.parseKnownLong(whole(), length);
    }

    /** Whether the value reads as a strict 64-bit integer; remembered for values never edited in place. */
    public boolean isInteger() {
        return isIntegerText();
    }

    @Override
    public RedisValue copy() {
        // Edited values may later change in place (bytesForUpdate), so a copy gets its own array.
        // Unedited bytes are never changed, so the copy may share them.
        return modifiedInPlace() ? new StringValue(java.util.Arrays.copyOf(value, length), true)
                : new StringValue(whole(), false, intEncodable());
    }

    /** RDB_TYPE_STRING: an int-encoded value as an integer, any other as a string (rdbSaveStringObject). */
    @Override
    public void writeRdb(RdbWriter out) {
        out.writeByte(RdbTypes.STRING);
        if (encoding().equals("int")) {
            out.writeInteger(Numbers.parseLongStrict(bytes()));
        } else {
            out.writeString(bytes());
        }
    }

    /** MEMORY USAGE of this value, without its key (see {@link MemoryLayout}). */
    @Override
    public long memoryUsage(long samples) {
        return switch (encoding()) {
            case "int" -> ROBJ;
            case "embstr" -> jemalloc(ROBJ + 3 + length() + 1);
            default -> ROBJ + sds(length());
        };
    }
}
