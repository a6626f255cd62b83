package dev.redsim.simulator.commands.server;

import dev.redsim.simulator.engine.Engine;
import dev.redsim.simulator.engine.LatencyMonitor;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * LATENCY DOCTOR's report (latency.c's createLatencyReport): each event's figures, then the advice its kind calls
 * for, in Redis's words (they are the reply). The simulator has no fork, AOF or disk, so only the advice of the
 * events it records (command, fast-command, expire-cycle, and eviction's when memory limits evict) can appear;
 * and it reports no transparent huge pages, whose advice depends on the host rather than on the server.
 */
final class LatencyDoctor {
    private LatencyDoctor() {
    }

    static String report(Engine engine) {
        LatencyMonitor latency = engine.latency();
        long threshold = engine.config().getLong("latency-monitor-threshold");
        var events = latency.events();
        if (events.isEmpty() && threshold == 0) {
            return "I'm sorry, Dave, I can't do that. Latency monitoring is disabled in this Redis instance. You may "
                    + "use \"CONFIG SET latency-monitor-threshold <milliseconds>.\" in order to enable it. If we "
                    + "weren't in a deep space mission I'd suggest to take a look at "
                    + "https://redis.io/topics/latency-monitor.\n";
        }
        StringBuilder report = new StringBuilder();
        boolean slowlogEnabled = false;
        boolean slowlogTuning = false;
        boolean slowlogInspect = false;
        boolean scheduler = false;
        boolean hz = false;
        boolean largeObjects = false;
        boolean massEviction = false;
        int advices = 0;
        int eventNumber = 0;
        long nowSeconds = engine.time().millis() / 1000;
        long slowerThan = engine.config().getLong("slowlog-log-slower-than");
        for (Map.Entry<String, LatencyMonitor.Series> e : events) {
            String event = e.getKey();
            LatencyMonitor.Series series = e.getValue();
            eventNumber++;
            if (eventNumber == 1) {
                report.append("Dave, I have observed latency spikes in this Redis instance. You don't mind talking "
                        + "about it, do you Dave?\n\n");
            }
            List<long[]> samples = series.samples();
            long sum = 0;
            long oldest = 0;
            for (long[] sample : samples) {
                sum += sample[1];
                if (oldest == 0 || sample[0] < oldest) {
                    oldest = sample[0];
                }
            }
            long average = samples.isEmpty() ? 0 : sum / samples.size();
            long period = samples.isEmpty() ? 0 : Math.max(1, nowSeconds - oldest);
            long deviations = 0;
            for (long[] sample : samples) {
                deviations += Math.abs(average - sample[1]);
            }
            long meanDeviation = samples.isEmpty() ? 0 : deviations / samples.size();
            report.append(String.format(Locale.ROOT, "%d. %s: %d latency spikes (average %dms, mean deviation %dms, "
                    + "period %.2f sec). Worst all time event %dms.", eventNumber, event, samples.size(), average,
                    meanDeviation, (double) period / samples.size(), series.allTimeHigh()));
            switch (event.toLowerCase(Locale.ROOT)) {
                case "command" -> {
                    if (slowerThan < 0) {
                        slowlogEnabled = true;
                        advices++;
                    } else if (slowerThan / 1000 > threshold) {
                        slowlogTuning = true;
                        advices++;
                    }
                    slowlogInspect = true;
                    largeObjects = true;
                    advices += 2;
                }
                case "fast-command" -> {
                    scheduler = true;
                    advices++;
                }
                case "expire-cycle" -> {
                    hz = true;
                    largeObjects = true;
                    advices += 2;
                }
                case "eviction-del" -> {
                    largeObjects = true;
                    advices++;
                }
                case "eviction-cycle" -> {
                    massEviction = true;
                    advices++;
                }
                default -> {
                }
            }
            report.append('\n');
        }
        if (eventNumber == 0 && advices == 0) {
            report.append("Dave, no latency spike was observed during the lifetime of this Redis instance, not in "
                    + "the slightest bit. I honestly think you ought to sit down calmly, take a stress pill, and "
                    + "think things over.\n");
            return report.toString();
        }
        if (advices == 0) {
            report.append("\nWhile there are latency events logged, I'm not able to suggest any easy fix. Please "
                    + "use the Redis community to get some help, providing this report in your help request.\n");
            return report.toString();
        }
        report.append("\nI have a few advices for you:\n\n");
        if (slowlogEnabled) {
            report.append("- There are latency issues with potentially slow commands you are using. Try to enable "
                    + "the Slow Log Redis feature using the command 'CONFIG SET slowlog-log-slower-than ")
                    .append(threshold * 1000).append("'. If the Slow log is disabled Redis is not able to log slow "
                    + "commands execution for you.\n");
        }
        if (slowlogTuning) {
            report.append("- Your current Slow Log configuration only logs events that are slower than your "
                    + "configured latency monitor threshold. Please use 'CONFIG SET slowlog-log-slower-than ")
                    .append(threshold * 1000).append("'.\n");
        }
        if (slowlogInspect) {
            report.append("- Check your Slow Log to understand what are the commands you are running which are too "
                    + "slow to execute. Please check https://redis.io/commands/slowlog for more information.\n");
        }
        if (scheduler) {
            report.append("- The system is slow to execute Redis code paths not containing system calls. This "
                    + "usually means the system does not provide Redis CPU time to run for long periods. You should "
                    + "try to:\n"
                    + "  1) Lower the system load.\n"
                    + "  2) Use a computer / VM just for Redis if you are running other software in the same "
                    + "system.\n"
                    + "  3) Check if you have a \"noisy neighbour\" problem.\n"
                    + "  4) Check with 'redis-cli --intrinsic-latency 100' what is the intrinsic latency in your "
                    + "system.\n"
                    + "  5) Check if the problem is allocator-related by recompiling Redis with MALLOC=libc, if you "
                    + "are using Jemalloc. However this may create fragmentation problems.\n");
        }
        if (hz && engine.config().getLong("hz") < 100) {
            report.append("- In order to make the Redis keys expiring process more incremental, try to set the 'hz' "
                    + "configuration parameter to 100 using 'CONFIG SET hz 100'.\n");
        }
        if (largeObjects) {
            report.append("- Deleting, expiring or evicting (because of maxmemory policy) large objects is a "
                    + "blocking operation. If you have very large objects that are often deleted, expired, or "
                    + "evicted, try to fragment those objects into multiple smaller objects.\n");
        }
        if (massEviction) {
            report.append("- Sudden changes to the 'maxmemory' setting via 'CONFIG SET', or allocation of large "
                    + "objects via sets or sorted sets intersections, STORE option of SORT, Redis Cluster large "
                    + "keys migrations (RESTORE command), may create sudden memory pressure forcing the server to "
                    + "block trying to evict keys. \n");
        }
        return report.toString();
    }
}
