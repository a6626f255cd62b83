package dev.redsim.simulator.acl;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;

/**
 * The ACL log (ACL LOG): refused commands, keys, channels and failed authentications, newest first. A refusal
 * like one of the 10 newest entries (same reason, context, object and user, within a minute of it) counts on that
 * entry and moves it to the front instead of adding one; the log keeps at most acllog-max-len entries.
 */
final class AclLog {
    static final String[] REASONS = {"", "command", "key", "auth", "channel"};
    /** Where the refusal happened (ACL_LOG_CTX_*). */
    static final String TOPLEVEL = "toplevel";
    static final String MULTI = "multi";
    static final String LUA = "lua";

    private static final long GROUPING_MILLIS = 60_000;
    private static final int SCANNED = 10;

    /** One entry; count, time and client info change when a like refusal is grouped into it. */
    static final class Entry {
        long count = 1;
        final int reason;
        final String context;
        final byte[] object;
        final byte[] username;
        long createdMillis;
        String clientInfo;

        Entry(int reason, String context, byte[] object, byte[] username, long createdMillis, String clientInfo) {
            this.reason = reason;
            this.context = context;
            this.object = object;
            this.username = username;
            this.createdMillis = createdMillis;
            this.clientInfo = clientInfo;
        }

        private boolean groups(Entry other) {
            return reason == other.reason && context.equals(other.context)
                    && Math.abs(createdMillis - other.createdMillis) <= GROUPING_MILLIS
                    && Arrays.equals(object, other.object) && Arrays.equals(username, other.username);
        }
    }

    private final Deque<Entry> entries = new ArrayDeque<>();

    void add(Entry entry, long maxLength) {
        Iterator<Entry> it = entries.iterator();
        for (int scanned = 0; scanned < SCANNED && it.hasNext(); scanned++) {
            Entry current = it.next();
            if (current.groups(entry)) {
                it.remove();
                current.count++;
                current.createdMillis = entry.createdMillis;
                current.clientInfo = entry.clientInfo;
                entries.addFirst(current);
                return;
            }
        }
        entries.addFirst(entry);
        while (entries.size() > maxLength) {
            entries.removeLast();
        }
    }

    /** The newest {@code count} entries. */
    List<Entry> newest(long count) {
        List<Entry> list = new ArrayList<>();
        for (Entry entry : entries) {
            if (list.size() >= count) {
                break;
            }
            list.add(entry);
        }
        return list;
    }

    void reset() {
        entries.clear();
    }
}
