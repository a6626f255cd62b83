package dev.redsim.simulator.engine;

/**
 * The classes of keyspace notification, with the letters of notify-keyspace-events (Redis's NOTIFY_* flags).
 * Commands report events with one of these classes; whether and where they are published is decided by the
 * engine from the configuration.
 */
public final class KeyspaceEvents {
    public static final int KEYSPACE = 1;      // K
    public static final int KEYEVENT = 1 << 1; // E
    public static final int GENERIC = 1 << 2;  // g
    public static final int STRING = 1 << 3;   // $
    public static final int LIST = 1 << 4;     // l
    public static final int SET = 1 << 5;      // s
    public static final int HASH = 1 << 6;     // h
    public static final int ZSET = 1 << 7;     // z
    public static final int EXPIRED = 1 << 8;  // x
    public static final int EVICTED = 1 << 9;  // e
    public static final int STREAM = 1 << 10;  // t
    public static final int KEY_MISS = 1 << 11; // m
    public static final int LOADED = 1 << 12;  // module only
    public static final int MODULE = 1 << 13;  // d
    public static final int NEW = 1 << 14;     // n
    /** A: every class except m and n, as in Redis. */
    public static final int ALL = GENERIC | STRING | LIST | SET | HASH | ZSET | EXPIRED | EVICTED | STREAM | MODULE;

    private KeyspaceEvents() {
    }

    /** Parses the flag letters; returns -1 on an unknown letter (CONFIG SET then fails). */
    public static int parse(String letters) {
        int flags = 0;
        for (char c : letters.toCharArray()) {
            switch (c) {
                case 'A' -> flags |= ALL;
                case 'g' -> flags |= GENERIC;
                case '$' -> flags |= STRING;
                case 'l' -> flags |= LIST;
                case 's' -> flags |= SET;
                case 'h' -> flags |= HASH;
                case 'z' -> flags |= ZSET;
                case 'x' -> flags |= EXPIRED;
                case 'e' -> flags |= EVICTED;
                case 'K' -> flags |= KEYSPACE;
                case 'E' -> flags |= KEYEVENT;
                case 't' -> flags |= STREAM;
                case 'm' -> flags |= KEY_MISS;
                case 'd' -> flags |= MODULE;
                case 'n' -> flags |= NEW;
                default -> {
                    return -1;
                }
            }
        }
        return flags;
    }

    /** The canonical letters CONFIG GET replies for a flag set (keyspaceEventsFlagsToString). */
    public static String format(int flags) {
        StringBuilder s = new StringBuilder();
        if ((flags & ALL) == ALL) {
            s.append('A');
        } else {
            if ((flags & GENERIC) != 0) s.append('g');
            if ((flags & STRING) != 0) s.append('$');
            if ((flags & LIST) != 0) s.append('l');
            if ((flags & SET) != 0) s.append('s');
            if ((flags & HASH) != 0) s.append('h');
            if ((flags & ZSET) != 0) s.append('z');
            if ((flags & EXPIRED) != 0) s.append('x');
            if ((flags & EVICTED) != 0) s.append('e');
            if ((flags & STREAM) != 0) s.append('t');
            if ((flags & MODULE) != 0) s.append('d');
            if ((flags & NEW) != 0) s.append('n'); // Redis 7.0 leaves n out after A (it is still in force)
        }
        if ((flags & KEYSPACE) != 0) s.append('K');
        if ((flags & KEYEVENT) != 0) s.append('E');
        if ((flags & KEY_MISS) != 0) s.append('m');
        return s.toString();
    }
}
