package dev.redsim.queue.connection;

import dev.redsim.queue.thoonk.JobFeed;
import dev.redsim.queue.thoonk.JobWorker;
import dev.redsim.queue.thoonk.JobWorkerOptions;
import dev.redsim.queue.thoonk.ThoonkKeys;
import dev.redsim.simulator.RedisCluster;
import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.intercept.CallOutcome;
import dev.redsim.simulator.intercept.InterceptorRegistration;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;

import java.time.Duration;
import java.util.HashSet;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * thoonk's blocking get is BRPOP then a claim script on one connection. When the cluster refuses the claim (the feed's
 * master failed over, or its slot moved, between the two: seen in QueuesDuringFailoverTest on the real cluster, where
 * the manual failover's write pause falls between them), the worker must claim the id it popped on the next try, on the
 * master serving the feed then; popping another instead leaves the first to maintenance, which requeues it only after
 * a whole claim timeout (30 s by default). The refusal is put exactly there with the simulated cluster's interceptor
 * (a MOVED to the same master answering the claim of a popped id, once), so this runs on the simulated cluster only:
 * the interleaving cannot be chosen on a real one. Maintenance is off, so a popped id left behind is never requeued:
 * without JobWorker claiming the popped id the job never runs.
 */
class ThoonkPoppedIdThroughARefusalTest {
    @Test
    void aClaimRefusedAfterItsPopClaimsThePoppedIdOnTheNextTry() throws Exception {
        try (RedisCluster cluster = RedisSimulator.cluster().masters(3).start();
             JedisCluster client = new JedisCluster(new HashSet<>(cluster.addresses().stream()
                     .map(HostAndPort::from).toList()), DefaultJedisClientConfig.builder()
                     .clientSetInfoConfig(ClientSetInfoConfig.DISABLED).build())) {
            String feed = "{popped}jobs";
            ThoonkKeys keys = new ThoonkKeys(feed);
            RedisSimulator master = cluster.nodeFor(feed);
            String moved = "MOVED " + RedisCluster.slotOf(feed) + " " + master.host() + ":" + master.port();
            AtomicInteger refused = new AtomicInteger();
            Arrivals ran = new Arrivals();
            // get_one.lua called with a popped id: EVALSHA sha 3 ids items claimed now <id>
            try (InterceptorRegistration refusal = master.intercept(call ->
                    (call.is("evalsha") || call.is("eval")) && call.argCount() == 7 && call.argString(1).equals("3")
                            && call.argString(2).equals(keys.ids()) && !call.argString(6).isEmpty()
                            && refused.getAndIncrement() == 0 ? CallOutcome.error(moved) : CallOutcome.proceed());
                 JobWorker worker = JobWorker.start(client, feed, JobWorkerOptions.defaults()
                         .withPollWait(Duration.ofSeconds(5)).withMaintenance(Duration.ZERO), run -> {
                             ran.add(run.item());
                             return "ok";
                         })) {
                // the worker waits in BRPOP, so the job's id is popped, then claimed by the script refused once
                try (Jedis node = new Jedis(master.host(), master.port())) {
                    assertThat(ServerPoll.until(() -> node.info("clients").contains("blocked_clients:1"),
                            Duration.ofSeconds(10))).as("the worker waits in BRPOP").isTrue();
                }
                new JobFeed(client, feed, null).put("the job");

                assertThat(ran.await("the job", Duration.ofSeconds(10))).as("the popped job ran").isTrue();
                assertThat(refused.get()).as("claims of a popped id (the first refused)").isGreaterThanOrEqualTo(2);
                try (Jedis node = new Jedis(master.host(), master.port())) {
                    assertThat(ServerPoll.until(() -> "1".equals(node.get(keys.finishes())), Duration.ofSeconds(10)))
                            .as("finished").isTrue();
                    assertThat(node.hlen(keys.items())).as("items left").isZero();
                    assertThat(node.zcard(keys.claimed())).as("claims left").isZero();
                }
            }
        }
    }
}
