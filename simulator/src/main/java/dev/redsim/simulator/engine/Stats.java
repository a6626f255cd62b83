package dev.redsim.simulator.engine;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** Counters INFO stats and INFO commandstats report; CONFIG RESETSTAT clears them. */
public final class Stats {
    public long commandsProcessed;
    public long connectionsReceived;
    public long rejectedCalls;
    public long failedCalls;
    public long expiredKeys;
    public long dirty;
    public long netInputBytes;
    public long netOutputBytes;
    public long errorReplies;
    public long saves;
    public final Map<String, long[]> perCommand = new HashMap<>();
    /** Error replies by their code (the first word: ERR, WRONGTYPE, ...), for INFO errorstats. */
    public final Map<String, Long> errorsByCode = new TreeMap<>();

    /** Counts one call of a command: calls, usec, rejected, failed. */
    public void countCall(String fullName, long micros, boolean failed) {
        long[] c = perCommand.computeIfAbsent(fullName, k -> new long[4]);
        c[0]++;
        c[1] += micros;
        if (failed) {
            c[3]++;
        }
    }

    /**
     * A blocked command that ended in failure once unblocked (served with an error, or woken by CLIENT UNBLOCK):
     * Redis counts it as failed then, its call having been counted when it blocked.
     */
    public void countFailedAfterBlock(String fullName) {
        perCommand.computeIfAbsent(fullName, k -> new long[4])[3]++;
    }

    public void countRejected(String fullName) {
        rejectedCalls++;
        if (fullName != null) {
            perCommand.computeIfAbsent(fullName, k -> new long[4])[2]++;
        }
    }

    /** Counts one error reply by its code, as Redis's afterErrorReply does. */
    public void countError(String message) {
        errorReplies++;
        int space = message.indexOf(' ');
        String code = space < 0 ? message : message.substring(0, space);
        errorsByCode.merge(code, 1L, Long::sum);
    }

    public void reset() {
        commandsProcessed = 0;
        connectionsReceived = 0;
        rejectedCalls = 0;
        failedCalls = 0;
        expiredKeys = 0;
        netInputBytes = 0;
        netOutputBytes = 0;
        perCommand.clear();
        errorReplies = 0;
        errorsByCode.clear();
    }
}
