package dev.redsim.queue.jq;

import org.msgpack.value.Value;
import redis.clients.jedis.Transaction;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** Read-only views for the web UI, and the trimming of old finished records. */
final class Inspector {
    private final JqContext ctx;
    private final Constraints constraints;

    Inspector(JqContext ctx, Constraints constraints) {
        this.ctx = ctx;
        this.constraints = constraints;
    }

    JobRecord job(long id) {
        return JobRecord.read(id, ctx.jedis.hgetAll(ctx.keys.job(id)));
    }

    /** name -> state -> count. Succeeded and failed count every job that ever ended there. */
    Map<String, Map<JobState, Long>> counts() {
        Map<String, Map<JobState, Long>> out = new LinkedHashMap<>();
        TreeSet<String> names = new TreeSet<>();
        ctx.jedis.smembers(ctx.keys.names()).forEach(n -> names.add(JqContext.text(n)));
        for (String name : names) {
            Map<JobState, Long> byState = new LinkedHashMap<>();
            Map<byte[], byte[]> raw = ctx.jedis.hgetAll(ctx.keys.stats(name));
            for (JobState s : JobState.values()) {
                byState.put(s, 0L);
            }
            raw.forEach((k, v) -> byState.put(JobState.fromWire(JqContext.text(k)), Long.parseLong(JqContext.text(v))));
            out.put(name, byState);
        }
        return out;
    }

    /** Jobs in a state: queued in dispatch order, delayed and running by due time, finished newest first. */
    List<JobRecord> jobs(JobState state, int limit) {
        List<byte[]> members = switch (state) {
            case QUEUED -> ctx.jedis.zrange(ctx.keys.ready(), 0, limit - 1);
            case DELAYED -> ctx.jedis.zrange(ctx.keys.delayed(), 0, limit - 1);
            case RUNNING -> ctx.jedis.zrange(ctx.keys.running(), 0, limit - 1);
            case SUCCEEDED -> ctx.jedis.zrevrange(ctx.keys.succeeded(), 0, limit - 1);
            case FAILED -> ctx.jedis.zrevrange(ctx.keys.failed(), 0, limit - 1);
        };
        List<JobRecord> jobs = new ArrayList<>();
        for (byte[] member : members) {
            JobRecord job = job(JqKeys.idOf(member));
            if (job != null) {
                jobs.add(job);
            }
        }
        return jobs;
    }

    List<Value> recentFailures(int limit) {
        List<Value> out = new ArrayList<>();
        for (byte[] record : ctx.jedis.lrange(ctx.keys.failures(), 0, limit - 1)) {
            out.add(Msgpack.decode(record));
        }
        return out;
    }

    /** Where every job id is, by state set (for conservation checks): state -> ids. */
    Map<JobState, List<Long>> places() {
        Map<JobState, List<Long>> out = new LinkedHashMap<>();
        out.put(JobState.QUEUED, ids(ctx.jedis.zrange(ctx.keys.ready(), 0, -1)));
        out.put(JobState.DELAYED, ids(ctx.jedis.zrange(ctx.keys.delayed(), 0, -1)));
        out.put(JobState.RUNNING, ids(ctx.jedis.zrange(ctx.keys.running(), 0, -1)));
        out.put(JobState.SUCCEEDED, ids(ctx.jedis.zrange(ctx.keys.succeeded(), 0, -1)));
        out.put(JobState.FAILED, ids(ctx.jedis.zrange(ctx.keys.failed(), 0, -1)));
        return out;
    }

    /**
     * Drops finished records whose finish is at least {@code finishedRetention} ago (their kept results live in
     * their own keys, with their own retention), in batches of 1000 per transaction.
     */
    int trimFinished() {
        int dropped = 0;
        double cutoff = ctx.now() - ctx.options.finishedRetention().toMillis();
        for (byte[] set : List.of(ctx.keys.succeeded(), ctx.keys.failed())) {
            while (true) {
                List<byte[]> oldest = ctx.jedis.zrangeByScore(set, Double.NEGATIVE_INFINITY, cutoff, 0, 1000);
                if (oldest.isEmpty()) {
                    break;
                }
                Transaction tx = ctx.jedis.multi();
                for (byte[] member : oldest) {
                    tx.zrem(set, member);
                    tx.del(ctx.keys.job(JqKeys.idOf(member)));
                }
                tx.exec();
                dropped += oldest.size();
            }
        }
        return dropped;
    }

    private static List<Long> ids(List<byte[]> members) {
        return members.stream().map(JqKeys::idOf).toList();
    }
}
