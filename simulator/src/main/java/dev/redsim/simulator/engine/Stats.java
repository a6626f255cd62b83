package dev.redsim.simulator.engine;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** Counters INFO stats and INFO commandstats report; CONFIG RESETSTAT clears them. */
public final class Stats {
    public long commandsProcessed;
    /**
     * INFO's lazyfreed_objects: values Redis would have freed on its lazyfree thread (UNLINK of a big value, FLUSHALL /
     * FLUSHDB ASYNC's keys). Here they are freed by the garbage collector either way; the count is what clients see.
     */
    public long lazyfreedObjects;
    public long connectionsReceived;
    /** Connections refused at maxclients (INFO rejected_connections). */
    public long rejectedConnections;
    public long rejectedCalls;
    public long failedCalls;
    public long expiredKeys;
    public long evictedKeys;
    public long evictedClients;
    /** INFO's sync_full, sync_partial_ok, sync_partial_err: the synchronisations replicas asked for. */
    public long syncFull;
    public long syncPartialOk;
    public long syncPartialErr;
    public long dirty;
    /** Bytes read from and written to client connections (Redis's stat_net_input_bytes / stat_net_output_bytes). */
    public long netInputBytes;
    public long netOutputBytes;
    public long errorReplies;
    public long saves;
    public final Map<String, long[]> perCommand = new HashMap<>();
    /** Error replies by their code (the first word: ERR, WRONGTYPE, ...), for INFO errorstats. */
    public final Map<String, Long> errorsByCode = new TreeMap<>();
    /**
     * instantaneous_ops_per_sec and instantaneous_input/output_kbps. They measure real traffic, so they follow the
     * host's monotonic clock, not the simulator's: with the simulator's clock frozen or moved by hours, a rate over
     * it would say nothing about the load.
     */
    public final InstantaneousMetric opsPerSecond = new InstantaneousMetric(monotonicMillis());
    public final InstantaneousMetric inputBytesPerSecond = new InstantaneousMetric(monotonicMillis());
    public final InstantaneousMetric outputBytesPerSecond = new InstantaneousMetric(monotonicMillis());

    /** serverCron's samples of the three rates (every 100 ms). */
    public void sampleRates() {
        long now = monotonicMillis();
        opsPerSecond.sample(now, commandsProcessed);
        inputBytesPerSecond.sample(now, netInputBytes);
        outputBytesPerSecond.sample(now, netOutputBytes);
    }

    private static long monotonicMillis() {
        return System.nanoTime() / 1_000_000;
    }

    /** Counts one call of a command: calls, usec, rejected, failed. */
    public void countCall(String fullName, long micros, boolean failed) {
        countCall(commandCounters(fullName), micros, failed);
    }

    /**
     * A command's counters (calls, usec, rejected, failed), made at its first count and kept from then on: a
     * CommandSpec holds on to them, so that counting a call is no lookup by name. {@link #reset} zeroes them in
     * place for that reason, and INFO commandstats leaves out the all-zero ones, as Redis leaves out unused commands.
     */
    public long[] commandCounters(String fullName) {
        long[] counters = perCommand.get(fullName);
        if (counters == null) { // not computeIfAbsent with a lambda: it is on every first start's path
            counters = new long[4];
            perCommand.put(fullName, counters);
        }
        return counters;
    }

    /** Counts one call into counters from {@link #commandCounters}. */
    public void countCall(long[] c, long micros, boolean failed) {
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
        commandCounters(fullName)[3]++;
    }

    public void countRejected(String fullName) {
        rejectedCalls++;
        if (fullName != null) {
            commandCounters(fullName)[2]++;
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
        lazyfreedObjects = 0;
        commandsProcessed = 0;
        connectionsReceived = 0;
        rejectedConnections = 0;
        rejectedCalls = 0;
        failedCalls = 0;
        expiredKeys = 0;
        evictedKeys = 0;
        evictedClients = 0;
        netInputBytes = 0;
        netOutputBytes = 0;
        long now = monotonicMillis();
        opsPerSecond.reset(now);
        inputBytesPerSecond.reset(now);
        outputBytesPerSecond.reset(now);
        perCommand.values().forEach(c -> Arrays.fill(c, 0)); // kept: specs hold them (commandCounters)
        errorReplies = 0;
        errorsByCode.clear();
    }
}
