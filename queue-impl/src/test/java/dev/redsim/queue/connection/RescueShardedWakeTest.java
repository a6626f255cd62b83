package dev.redsim.queue.connection;

import dev.redsim.conformance.contracts.thoonk.ManualClock;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.ClusterSlotTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedClusters;
import dev.redsim.conformance.target.SharedTargets;
import dev.redsim.queue.rescue.RescueEngine;
import dev.redsim.queue.rescue.RescueOptions;
import dev.redsim.queue.rescue.RescueWorker;
import dev.redsim.queue.rescue.RescueWorkerOptions;
import dev.redsim.queue.rescue.Task;
import dev.redsim.queue.script.Transitions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * rescue's sharded wake ({@link RescueOptions#withShardedWake()}: SPUBLISH / SSUBSCRIBE on
 * {@code {rescue:<queue>}:wake}) on one server and on both clusters, with scripts and with the WATCH/MULTI form. A
 * runtime whose idle check is an hour away, seen waiting for a wake before each step, runs a created task and a task
 * whose ownership expired: only the shard channel can have started them. And on the wire: the default still
 * PUBLISHes, the option publishes only on the shard channel, so a plain subscriber (a runtime of an earlier version,
 * another listener) hears nothing of it.
 */
class RescueShardedWakeTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final Duration LEASE = Duration.ofSeconds(10);
    private static final String NAME = "x.api.io/object";

    static Stream<Arguments> cases() {
        return Stream.of("simulator", "redis-server", "simulated cluster", "redis cluster")
                .flatMap(where -> Stream.of(Transitions.SCRIPTS, Transitions.OPTIMISTIC)
                        .map(t -> Arguments.of(where, t)));
    }

    /** Where a queue lives: a single server, or the master of the queue's slot ({rescue:<queue>}). */
    private static RedisTarget target(String where, String queue) {
        String tag = "rescue:" + queue;
        return switch (where) {
            case "simulator" -> SharedTargets.simulator();
            case "redis-server" -> SharedTargets.reference();
            case "simulated cluster" -> SharedClusters.simulated(tag);
            default -> SharedClusters.reference(tag);
        };
    }

    private static UnifiedJedis client(RedisTarget target) {
        return target instanceof ClusterSlotTarget cluster ? ClusterClients.to(cluster, cluster.host(), cluster.port())
                : new JedisPooled(target.host(), target.port());
    }

    /** A connection to the node of the queue's slot: any name under the queue's hash tag routes there. */
    private static Jedis direct(UnifiedJedis client, String queue) {
        return RedisConnections.of(client).forKey(("{rescue:" + queue + "}").getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] channel(String queue) {
        return ("{rescue:" + queue + "}:wake").getBytes(StandardCharsets.UTF_8);
    }

    private static Task named(String name) {
        return Task.withMeta(Map.of(NAME, name));
    }

    /**
     * True once the runtime's only handler thread has searched, found nothing and waits for a wake (its idle check is
     * an hour away): from then on only a wake makes it search again. A condition of this JVM, polled with a bound.
     */
    private static boolean waitingForAWake(String queue) {
        String thread = "rescue-worker-" + queue + "-0";
        return ServerPoll.until(() -> Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().equals(thread))
                .anyMatch(e -> e.getKey().getState() == Thread.State.TIMED_WAITING && Arrays.stream(e.getValue())
                        .anyMatch(f -> f.getMethodName().equals("awaitSince"))), BOUND);
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void aCreateAndAnExpiryWakeARuntimeListeningOnTheShardChannel(String where, Transitions transitions)
            throws Exception {
        String queue = "wake-" + UUID.randomUUID();
        RedisTarget target = target(where, queue);
        RescueOptions sharded = RescueOptions.of(queue, "runtime").withTransitions(transitions).withLease(LEASE)
                .withShardedWake();
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        Arrivals ran = new Arrivals();
        try (UnifiedJedis client = client(target);
             Jedis direct = direct(client, queue);
             RespClient raw = new RespClient(target.host(), target.port())) {
            RescueEngine producer = new RescueEngine(direct, clock, withWorker(sharded, "producer"));
            // Held by another worker before the runtime starts: only the expiry of that ownership brings it back.
            producer.create(named("expired"));
            assertThat(new RescueEngine(direct, clock, withWorker(sharded, "crashed")).search()).isPresent();
            try (RescueWorker worker = RescueWorker.start(client, sharded, RescueWorkerOptions.defaults()
                    .withClock(clock).withIdleCheck(Duration.ofHours(1)), run -> {
                        ran.add(run.task().meta().get(NAME));
                        return null;
                    })) {
                assertThat(ServerPoll.until(() -> raw.call("PUBSUB".getBytes(), "SHARDNUMSUB".getBytes(),
                        channel(queue)).children().get(1).asLong() == 1, BOUND)).as("subscribed to the shard channel")
                        .isTrue();

                assertThat(waitingForAWake(queue)).as("idle before the create").isTrue();
                producer.create(named("created"));
                assertThat(ran.await("created", BOUND)).as("a create wakes").isTrue();

                assertThat(waitingForAWake(queue)).as("idle before the expiry").isTrue();
                clock.advance(LEASE.toMillis() + 1);
                worker.upkeepNow();
                assertThat(ran.await("expired", BOUND)).as("an expiry wakes").isTrue();
            }
        }
        assertThat(ran.values()).containsExactly("created", "expired");
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void theDefaultPublishesAndTheShardedWakeReachesOnlyShardSubscribers(String where, Transitions transitions)
            throws Exception {
        String queue = "wake-" + UUID.randomUUID();
        RedisTarget target = target(where, queue);
        RescueOptions plain = RescueOptions.of(queue, "producer").withTransitions(transitions);
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        byte[] channel = channel(queue);
        try (UnifiedJedis client = client(target);
             Jedis direct = direct(client, queue);
             RespClient subscriber = new RespClient(target.host(), target.port());
             RespClient shardSubscriber = new RespClient(target.host(), target.port());
             RespClient publisher = new RespClient(target.host(), target.port())) {
            assertThat(subscriber.call("SUBSCRIBE".getBytes(), channel).children().get(0).text())
                    .isEqualTo("subscribe");
            assertThat(shardSubscriber.call("SSUBSCRIBE".getBytes(), channel).children().get(0).text())
                    .isEqualTo("ssubscribe");

            new RescueEngine(direct, clock, plain).create(named("plain"));
            assertThat(texts(subscriber.read())).as("the default wake").containsExactly("message", text(channel), "1");

            new RescueEngine(direct, clock, plain.withShardedWake()).create(named("sharded"));
            assertThat(texts(shardSubscriber.read())).as("the sharded wake")
                    .containsExactly("smessage", text(channel), "1");
            // Messages on one node reach a subscriber in order: had the sharded create also PUBLISHed (it runs on
            // this node too), that message would come before the fence.
            publisher.call("PUBLISH".getBytes(), channel, "fence".getBytes());
            assertThat(texts(subscriber.read())).as("the plain subscriber's next message")
                    .containsExactly("message", text(channel), "fence");
        }
    }

    private static RescueOptions withWorker(RescueOptions options, String worker) {
        return new RescueOptions(options.queue(), worker, options.lease(), options.retention(), options.maxAttempts(),
                options.transitions(), options.shardedWake());
    }

    private static List<String> texts(RespValue push) {
        return push.children().stream().map(RespValue::text).toList();
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
