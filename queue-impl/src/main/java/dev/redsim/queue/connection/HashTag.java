package dev.redsim.queue.connection;

/** Redis Cluster's hash tag rule: the slot of a key is that of the text between its first '{' and the next '}'. */
public final class HashTag {
    private HashTag() {
    }

    /** The tag of {@code name}, or null when it has none (no braces, or nothing between them). */
    public static String of(String name) {
        int open = name.indexOf('{');
        if (open < 0) {
            return null;
        }
        int close = name.indexOf('}', open + 1);
        if (close < 0 || close == open + 1) {
            return null;
        }
        return name.substring(open + 1, close);
    }
}
