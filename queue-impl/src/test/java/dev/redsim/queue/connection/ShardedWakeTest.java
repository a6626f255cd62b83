package dev.redsim.queue.connection;

import dev.redsim.conformance.contracts.thoonk.ManualClock;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.ClusterSlotTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedClusters;
import dev.redsim.conformance.target.SharedTargets;
import dev.redsim.queue.conveyor.Conveyor;
import dev.redsim.queue.conveyor.ConveyorKeys;
import dev.redsim.queue.conveyor.ConveyorOptions;
import dev.redsim.queue.conveyor.ConveyorWorker;
import dev.redsim.queue.conveyor.ConveyorWorkerOptions;
import dev.redsim.queue.conveyor.Deadline;
import dev.redsim.queue.conveyor.Job;
import dev.redsim.queue.conveyor.Lease;
import dev.redsim.queue.script.Transitions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Conveyor's sharded wake ({@link ConveyorKeys#withShardedWake()}: SPUBLISH / SSUBSCRIBE) on one server and on both
 * clusters, with scripts and with the WATCH/MULTI form: every push that publishes a wake (add, the scheduler, lease
 * recovery, a hand-back) wakes a runtime whose idle check is an hour away, so only the shard channel can start the job.
 */
class ShardedWakeTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final String TAG = "wake";

    static Stream<Arguments> cases() {
        return Stream.of("simulator", "redis-server", "simulated cluster", "redis cluster")
                .flatMap(where -> Stream.of(Transitions.SCRIPTS, Transitions.OPTIMISTIC)
                        .map(t -> Arguments.of(where, t)));
    }

    private static RedisTarget target(String where) {
        return switch (where) {
            case "simulator" -> SharedTargets.simulator();
            case "redis-server" -> SharedTargets.reference();
            case "simulated cluster" -> SharedClusters.simulated(TAG);
            default -> SharedClusters.reference(TAG);
        };
    }

    private static UnifiedJedis client(RedisTarget target) {
        return target instanceof ClusterSlotTarget cluster ? ClusterClients.to(cluster, cluster.host(), cluster.port())
                : new JedisPooled(target.host(), target.port());
    }


    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void everyPushWakesARuntimeListeningOnTheShardChannel(String where, Transitions transitions) throws Exception {
        RedisTarget target = target(where);
        ConveyorKeys keys = new ConveyorKeys("{" + TAG + "}:" + UUID.randomUUID() + ":").withShardedWake();
        ConveyorOptions options = ConveyorOptions.defaults().withTransitions(transitions)
                .withLease(Duration.ofSeconds(10));
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        Arrivals ran = new Arrivals();
        try (UnifiedJedis client = client(target);
             Jedis direct = RedisConnections.of(client).forKey(keys.slotKey());
             RespClient raw = new RespClient(target.host(), target.port())) {
            Conveyor conveyor = new Conveyor(direct, clock, options, keys);
            // Two jobs held by another process before the runtime starts: only a release or recovery brings them back.
            conveyor.add(Deadline.none(), Job.of("q", "released".getBytes()), false);
            conveyor.add(Deadline.none(), Job.of("q", "recovered".getBytes()), false);
            Lease toRelease = conveyor.claim(Deadline.none(), "q").orElseThrow();
            conveyor.claim(Deadline.none(), "q").orElseThrow();
            try (ConveyorWorker worker = ConveyorWorker.start(client, "q", ConveyorWorkerOptions.defaults()
                    .withKeys(keys).withConveyor(options).withClock(clock).withIdleCheck(Duration.ofHours(1)),
                    run -> ran.add(new String(run.job().payload())))) {
                assertThat(ServerPoll.until(() -> raw.call("PUBSUB".getBytes(), "SHARDNUMSUB".getBytes(), keys.wake("q"))
                        .children().get(1).asLong() == 1, BOUND)).as("subscribed to the shard channel").isTrue();

                conveyor.add(Deadline.none(), Job.of("q", "added".getBytes()), false);
                assertThat(ran.await("added", BOUND)).as("add wakes").isTrue();

                conveyor.release(Deadline.none(), toRelease);
                assertThat(ran.await("released", BOUND)).as("a hand-back wakes").isTrue();

                conveyor.add(Deadline.none(), Job.of("q", "scheduled".getBytes())
                        .withRunAt(Instant.ofEpochMilli(clock.millis() + 1_000)), false);
                clock.advance(1_001);
                worker.upkeepNow();
                assertThat(ran.await("scheduled", BOUND)).as("the scheduler wakes").isTrue();

                clock.advance(options.lease().toMillis() + 1);
                worker.upkeepNow();
                assertThat(ran.await("recovered", BOUND)).as("lease recovery wakes").isTrue();
            }
        }
        assertThat(ran.values()).containsExactlyInAnyOrder("added", "released", "scheduled", "recovered");
    }
}
