package dev.redsim.simulator.engine;

import java.util.HashMap;
import java.util.Map;

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
    public final Map<String, long[]> perCommand = new HashMap<>();

    /** Counts one call of a command: calls, usec, rejected, failed. */
    public void countCall(String fullName, long micros, boolean failed) {
        long[] c = perCommand.computeIfAbsent(fullName, k -> new long[4]);
        c[0]++;
        c[1] += micros;
        if (failed) {
            c[3]++;
        }
    }

    public void countRejected(String fullName) {
        rejectedCalls++;
        if (fullName != null) {
            perCommand.computeIfAbsent(fullName, k -> new long[4])[2]++;
        }
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
    }
}
