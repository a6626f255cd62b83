package dev.redsim.queue.thoonk;

import dev.redsim.conformance.contracts.thoonk.CommandHook;
import dev.redsim.conformance.contracts.thoonk.JobClaim;
import dev.redsim.conformance.contracts.thoonk.JobQueueSettings;
import dev.redsim.conformance.contracts.thoonk.MaintenanceOutcome;
import dev.redsim.conformance.contracts.thoonk.ThoonkJobQueue;
import dev.redsim.conformance.target.RedisTarget;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

import java.time.Clock;
import java.time.Duration;

/** Our {@link Job} and {@link JobMaintenance} behind the contract suite's interface, on one listened connection. */
final class JedisThoonkJobQueue implements ThoonkJobQueue {
    private final ListenedConnection connection;
    private final Job job;
    private final JobMaintenance maintenance;

    JedisThoonkJobQueue(RedisTarget target, String feed, Clock clock, JobQueueSettings settings, CommandHook hook) {
        this(target, feed, clock, settings, hook, dev.redsim.queue.script.Transitions.SCRIPTS);
    }

    JedisThoonkJobQueue(RedisTarget target, String feed, Clock clock, JobQueueSettings settings, CommandHook hook,
                        dev.redsim.queue.script.Transitions transitions) {
        this.connection = new ListenedConnection(new HostAndPort(target.host(), target.port()),
            hook::beforeCommand);
        Jedis jedis = new Jedis(connection);
        this.job = new Job(jedis, feed, clock, transitions);
        // The maintenance in the same form as the transitions: the WATCH/MULTI suite runs the WATCH/MULTI requeue.
        this.maintenance = new JobMaintenance(jedis, feed, clock,
            new MaintenanceSettings(Duration.ofMillis(settings.claimTimeoutMillis()), settings.maxCancels()), null,
            new java.util.HashMap<>(), transitions);
    }

    @Override
    public String put(String item) {
        return job.put(item);
    }

    @Override
    public String putHighPriority(String item) {
        return job.putHighPriority(item);
    }

    @Override
    public JobClaim get(Duration timeout) {
        Claim claim = job.get(timeout);
        return claim == null ? null : new JobClaim(claim.id(), claim.item(), claim.claimedAt());
    }

    @Override
    public boolean finish(JobClaim claim, String resultOrNull) {
        return job.finish(ours(claim), resultOrNull);
    }

    @Override
    public boolean cancel(JobClaim claim) {
        return job.cancel(ours(claim));
    }

    @Override
    public boolean stall(JobClaim claim) {
        return job.stall(ours(claim));
    }

    @Override
    public boolean retry(String id) {
        return job.retry(id);
    }

    @Override
    public boolean retract(String id) {
        return job.retract(id);
    }

    @Override
    public long failures(String id) {
        return job.failures(id);
    }

    @Override
    public MaintenanceOutcome maintain() {
        MaintenanceReport report = maintenance.pass();
        return new MaintenanceOutcome(report.requeued(), report.cancelled(), report.stalledNow());
    }

    /** Closes the socket only: a crashed client must not send anything more (not even a DISCARD). */
    @Override
    public void close() {
        try {
            connection.close();
        } catch (RuntimeException ignored) {
            // closing a broken connection: nothing left to do
        }
    }

    private static Claim ours(JobClaim claim) {
        return new Claim(claim.id(), claim.item(), claim.claimedAt());
    }
}
