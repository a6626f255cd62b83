package dev.redsim.queue.thoonk;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.resps.Tuple;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The contract's maintenance, made precise. Run by one process per job feed, every so often:
 * <ol>
 * <li>an id in feed.items but in none of ids/claimed/stalled is requeued only once it has been unaccounted for
 * longer than the claim timeout, measured on the clock from the first pass that saw it missing (a worker between
 * its BRPOP and its claim is unaccounted for for a moment; requeueing it then would deliver it twice). Counting
 * passes instead of time let two quick passes in a row requeue such a job. The requeue re-checks, atomically with
 * its LPUSH, that the id is still lost ({@link Job#requeueLost}: one script, or WATCH/MULTI per id);</li>
 * <li>a job claimed longer than the claim timeout is cancelled (requeued, failure counted) or, once it has been
 * cancelled maxCancels times, stalled. Both are fenced by the claim score seen, so a fresh reclaim is left alone;</li>
 * <li>the pass's report is published to the stats feed, when there is one.</li>
 * </ol>
 */
public final class JobMaintenance {
    private final Jedis jedis;
    private final ThoonkKeys keys;
    private final Clock clock;
    private final MaintenanceSettings settings;
    private final Job job;
    private final Feed statsFeed;
    /** Unaccounted ids and when (clock ms) a pass first saw each of them missing. */
    private final Map<String, Long> unaccountedSince;

    /** @param statsFeed where each pass's report is published (id "latest"), or null for none */
    public JobMaintenance(Jedis jedis, String feed, Clock clock, MaintenanceSettings settings, String statsFeed) {
        this(jedis, feed, clock, settings, statsFeed, new java.util.HashMap<>());
    }

    /**
     * @param unaccountedSince the memory of earlier passes, for a caller (a {@link JobWorker}) that runs each pass on
     *                         whichever pooled connection it has at the time
     */
    JobMaintenance(Jedis jedis, String feed, Clock clock, MaintenanceSettings settings, String statsFeed,
                   Map<String, Long> unaccountedSince) {
        this(jedis, feed, clock, settings, statsFeed, unaccountedSince, dev.redsim.queue.script.Transitions.SCRIPTS);
    }

    /** @param transitions how the requeue of lost ids and the fenced cancel and stall of timed-out claims are applied */
    JobMaintenance(Jedis jedis, String feed, Clock clock, MaintenanceSettings settings, String statsFeed,
                   Map<String, Long> unaccountedSince, dev.redsim.queue.script.Transitions transitions) {
        this.unaccountedSince = unaccountedSince;
        this.jedis = jedis;
        this.keys = new ThoonkKeys(feed);
        this.clock = clock;
        this.settings = settings;
        this.job = new Job(jedis, feed, clock, transitions);
        this.statsFeed = statsFeed == null ? null : new Feed(jedis, statsFeed, clock);
    }

    public MaintenanceReport pass() {
        Transaction tx = jedis.multi();
        var itemsReply = tx.hkeys(keys.items());
        var availReply = tx.lrange(keys.ids(), 0, -1);
        var claimReply = tx.zrangeWithScores(keys.claimed(), 0, -1);
        var stallReply = tx.smembers(keys.stalled());
        tx.exec();
        Set<String> items = itemsReply.get();
        Set<String> accounted = new HashSet<>(availReply.get());
        // ZRANGE order (oldest claim first): timed-out jobs go back in line in the order they were claimed.
        Map<String, Double> claimed = new LinkedHashMap<>();
        for (Tuple t : claimReply.get()) {
            claimed.put(t.getElement(), t.getScore());
        }
        accounted.addAll(claimed.keySet());
        accounted.addAll(stallReply.get());

        Set<String> unaccounted = new HashSet<>(items);
        unaccounted.removeAll(accounted);
        long now = clock.millis();
        Map<String, Long> since = new java.util.HashMap<>();
        List<String> due = new ArrayList<>();
        for (String id : unaccounted) {
            long first = unaccountedSince.getOrDefault(id, now);
            since.put(id, first);
            if (now - first > settings.claimTimeout().toMillis()) {
                due.add(id);
            }
        }
        int requeued = 0;
        List<Boolean> done = job.requeueLost(due);
        for (int i = 0; i < due.size(); i++) {
            if (done.get(i)) {
                requeued++;
                since.remove(due.get(i));
            }
        }
        // Ids found again since are forgotten: if one goes missing later, its wait starts over.
        unaccountedSince.clear();
        unaccountedSince.putAll(since);

        int cancelled = 0;
        int stalled = 0;
        for (Map.Entry<String, Double> c : claimed.entrySet()) {
            if (now - c.getValue() > settings.claimTimeout().toMillis()) {
                if (job.failures(c.getKey()) >= settings.maxCancels()) {
                    stalled += job.stall(c.getKey(), c.getValue()) ? 1 : 0;
                } else {
                    cancelled += job.cancel(c.getKey(), c.getValue()) ? 1 : 0;
                }
            }
        }
        MaintenanceReport report = new MaintenanceReport(items.size(), availReply.get().size(), claimed.size(),
            stallReply.get().size(), unaccounted.size(), requeued, cancelled, stalled);
        if (statsFeed != null) {
            statsFeed.publish("latest", report.toItem());
        }
        return report;
    }
}
