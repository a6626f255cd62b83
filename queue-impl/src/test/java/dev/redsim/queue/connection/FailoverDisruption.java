package dev.redsim.queue.connection;

import redis.clients.jedis.HostAndPort;

import java.time.Duration;
import java.util.HashSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A failover of the slot's master to its replica in the middle of a run (RaceCluster.failOver: the simulated
 * cluster's failover, or CLUSTER FAILOVER on a real replica). Then the producers add the rest of their jobs, which
 * only the new master can take, and the run waits (bounded) until the former master has refused some transition
 * since the failover: every client's slot map still names it, so its next transition there meets MOVED (or, blocked
 * there when it turned replica, -UNBLOCKED) and RedisConnections must follow to the new master.
 */
final class FailoverDisruption implements RaceDisruption {
    private static final Duration BOUND = Duration.ofSeconds(20);

    private final RaceCluster cluster;
    private final int slot;
    private HostAndPort former;
    private HostAndPort promoted;

    FailoverDisruption(RaceCluster cluster, int slot) {
        this.cluster = cluster;
        this.slot = slot;
    }

    @Override
    public String name() {
        return "failover";
    }

    @Override
    public int run(Runnable started) {
        String master = cluster.ownerOf(slot).toString();
        long before = NodeReads.errorReplies(master);
        HostAndPort[] roles = cluster.failOver(slot, BOUND);
        former = roles[0];
        promoted = roles[1];
        started.run();
        return ServerPoll.until(() -> NodeReads.errorReplies(master) > before, BOUND) ? 1 : 0;
    }

    @Override
    public String servingMaster() {
        return promoted.toString();
    }

    @Override
    public void checkKeysPlaced(String tag) {
        assertThat(cluster.ownerOf(slot)).as("the slot's master").isEqualTo(promoted);
        // the former master, now a replica, applies the new master's stream: on a real one asynchronously, so polled
        boolean same = ServerPoll.until(() -> new HashSet<>(NodeReads.keysOn(former.toString(), tag))
                .equals(new HashSet<>(NodeReads.keysOn(promoted.toString(), tag))), BOUND);
        assertThat(same).as("the former master, now a replica, holds the new master's keys: %s vs %s",
                NodeReads.keysOn(former.toString(), tag), NodeReads.keysOn(promoted.toString(), tag)).isTrue();
    }
}
