package dev.redsim.queue.connection;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Racing workers while their queue's master fails over to its replica (issue 19): the runs of {@link QueueRaces} on a
 * cluster of 3 masters with a replica each, simulated (RedisCluster.failover) or real (CLUSTER FAILOVER sent to the
 * replica, polled until every node sees the roles swapped), the failover coming after a fifth of the jobs ran, the
 * second half of the jobs added after it. Every client's slot map still names the former master: its next transition
 * there is refused with MOVED (a blocked pop there, with -UNBLOCKED when the node turns replica), and
 * RedisConnections.transition renews the map and runs the transition on the new master.
 *
 * <p>What the runs assert, and why that strict: every job ran exactly once, nothing is left queued or leased, and the
 * former master (now the replica) holds exactly the new master's keys. A manual CLUSTER FAILOVER (not FORCE or
 * TAKEOVER) pauses the master's writers, lets the replica reach the master's replication offset and only then
 * promotes it, so every write a client saw acknowledged is on the new master: no job may be lost or run twice. (With
 * FORCE, or a crashed master, a write acknowledged but not yet replicated can be lost; the contracts then fall back on
 * their lease recovery, which these runs do not exercise.) The simulated cluster applies a master's writes to its
 * replicas right after each command (decision 0022), so there the same holds by construction.
 */
class QueuesDuringFailoverTest {
    private QueueRaces races;

    @AfterEach
    void closeAll() throws Exception {
        if (races != null) {
            races.close();
        }
    }

    private QueueRaces races(String which) {
        races = new QueueRaces(RaceCluster.start(which, 1), which);
        return races;
    }

    private RaceCluster cluster() {
        return races.cluster();
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void conveyorWorkersRacingThroughAFailoverRunEveryJobOnce(String which) throws Exception {
        races(which).conveyor(slot -> cluster().failover(slot));
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void thoonkWorkersRacingThroughAFailoverFinishEveryJobOnce(String which) throws Exception {
        races(which).thoonk(slot -> cluster().failover(slot));
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void jqWorkersRacingThroughAFailoverThroughTwoMastersFinishEveryJobOnce(String which) throws Exception {
        races(which).jq(slot -> cluster().failover(slot));
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void rescueWorkersRacingThroughAFailoverRunEveryTaskOnce(String which) throws Exception {
        races(which).rescue(slot -> cluster().failover(slot));
    }
}
