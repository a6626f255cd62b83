package dev.redsim.queue.connection;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.ClusterSlotTarget;
import dev.redsim.conformance.target.SharedClusters;
import dev.redsim.queue.conveyor.Conveyor;
import dev.redsim.queue.conveyor.ConveyorClient;
import dev.redsim.queue.conveyor.ConveyorKeys;
import dev.redsim.queue.conveyor.ConveyorOptions;
import dev.redsim.queue.conveyor.ConveyorWorker;
import dev.redsim.queue.conveyor.ConveyorWorkerOptions;
import dev.redsim.queue.conveyor.Deadline;
import dev.redsim.queue.conveyor.Job;
import dev.redsim.queue.conveyor.RedisFailureException;
import dev.redsim.queue.thoonk.Feeds;
import dev.redsim.queue.thoonk.JobFeed;
import dev.redsim.queue.thoonk.JobWorker;
import dev.redsim.queue.thoonk.JobWorkerOptions;
import dev.redsim.queue.thoonk.ThoonkKeys;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPubSub;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Conveyor and thoonk through a JedisCluster, on a simulated and a real 3-master cluster: queues under different hash
 * tags live on different masters, runtimes are woken through the node of their queue's slot (idle checks of an hour,
 * so only the wake can start the job), the clock asks that node's TIME, names without a hash tag are refused, and
 * thoonk's Delete Feed works across the registry's and the feed's slots.
 */
class QueuesOnClusterTest {
    /** Tags served by the first, second and third master (slots 3728, 9631 and 13262). */
    private static final String FIRST = "emails";
    private static final String SECOND = "jobs";
    private static final String THIRD = "invoices";
    private static final Duration BOUND = Duration.ofSeconds(20);

    private static ClusterSlotTarget cluster(String which, String tag) {
        return which.equals("simulated") ? SharedClusters.simulated(tag) : SharedClusters.reference(tag);
    }

    private static JedisCluster client(ClusterSlotTarget target) {
        return ClusterClients.to(target, target.host(), target.port());
    }


    private static long subscribers(ClusterSlotTarget node, byte[] channel) {
        try (RespClient raw = new RespClient(node.host(), node.port())) {
            return raw.call("PUBSUB".getBytes(), "NUMSUB".getBytes(), channel).children().get(1).asLong();
        }
    }

    /** How many keys the node holds in the slot of {@code tag}. */
    private static long keysOn(ClusterSlotTarget node, String tag) {
        try (RespClient raw = new RespClient(node.host(), node.port())) {
            long slot = raw.call("CLUSTER", "KEYSLOT", tag).asLong();
            return raw.call("CLUSTER", "COUNTKEYSINSLOT", Long.toString(slot)).asLong();
        }
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void conveyorsUnderDifferentTagsRunOnTheirOwnMastersWokenByTheirNode(String which) throws Exception {
        ClusterSlotTarget first = cluster(which, FIRST);
        ClusterSlotTarget third = cluster(which, THIRD);
        assertThat(first.port()).isNotEqualTo(third.port());
        String run = UUID.randomUUID().toString();
        Arrivals ran = new Arrivals();
        try (JedisCluster jedis = client(first)) {
            for (ClusterSlotTarget node : List.of(first, third)) {
                ConveyorKeys keys = new ConveyorKeys("{" + node.hashTag() + "}:" + run + ":");
                ConveyorWorkerOptions options = ConveyorWorkerOptions.defaults().withKeys(keys)
                        .withIdleCheck(Duration.ofHours(1)); // only a wake can start a job added later
                try (ConveyorWorker worker = ConveyorWorker.start(jedis, "mail", options,
                        r -> ran.add(new String(r.job().payload())))) {
                    assertThat(ServerPoll.until(() -> subscribers(node, keys.wake("mail")) == 1, BOUND))
                            .as("subscribed on the node of the queue's slot").isTrue();
                    ConveyorClient producer = new ConveyorClient(jedis, ConveyorOptions.defaults(), keys, null);
                    String uuid = producer.add(Deadline.none(),
                            Job.of("mail", (node.hashTag() + "-job").getBytes()), false).uuid();
                    assertThat(ran.await(node.hashTag() + "-job", BOUND)).as("woken, ran").isTrue();
                    try (Jedis owner = new Jedis(node.host(), node.port())) {
                        assertThat(ServerPoll.until(() -> owner.sismember(keys.done(), uuid.getBytes()), BOUND))
                                .as("completed, recorded on the queue's master").isTrue();
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void thoonkFeedsUnderDifferentTagsRunOnTheirOwnMasters(String which) throws Exception {
        ClusterSlotTarget second = cluster(which, SECOND);
        ClusterSlotTarget third = cluster(which, THIRD);
        assertThat(second.port()).isNotEqualTo(third.port());
        List<String> results = new CopyOnWriteArrayList<>();
        try (JedisCluster jedis = client(second)) {
            for (ClusterSlotTarget node : List.of(second, third)) {
                String feed = "{" + node.hashTag() + "}" + UUID.randomUUID();
                JobFeed producer = new JobFeed(jedis, feed, null);
                String id = producer.put("item of " + node.hashTag());
                try (JobWorker worker = JobWorker.start(jedis, feed, JobWorkerOptions.defaults()
                        .withPollWait(Duration.ofMillis(50)), r -> {
                            results.add(r.item());
                            return "ok";
                        })) {
                    assertThat(ServerPoll.until(() -> producer.ids().isEmpty(), BOUND)).as("finished").isTrue();
                }
                assertThat(results).contains("item of " + node.hashTag());
                try (Jedis owner = new Jedis(node.host(), node.port())) {
                    assertThat(owner.hexists(new ThoonkKeys(feed).items(), id)).as("finished job's item gone").isFalse();
                    assertThat(owner.get(new ThoonkKeys(feed).finishes())).isEqualTo("1");
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void namesWithoutAHashTagAreRefusedAndWouldFailOnTheCluster(String which) {
        ClusterSlotTarget first = cluster(which, FIRST);
        try (JedisCluster jedis = client(first)) {
            assertThatThrownBy(() -> new ConveyorClient(jedis, ConveyorOptions.defaults(), ConveyorKeys.standard(), null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("hash tag");
            assertThatThrownBy(() -> new JobFeed(jedis, "untagged", null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("hash tag");
        }
        // Why: the spec's key names spread over slots, and the cluster refuses a transition that spans them. (In the
        // WATCH/MULTI form: the simulated cluster does not check the keys a script touches yet, redis-server does.)
        try (Jedis node = new Jedis(first.host(), first.port())) {
            Conveyor untagged = new Conveyor(node, java.time.Clock.systemUTC(),
                    ConveyorOptions.defaults().withTransitions(dev.redsim.queue.script.Transitions.OPTIMISTIC),
                    ConveyorKeys.standard());
            assertThatThrownBy(() -> untagged.add(Deadline.none(), Job.of("q", "x".getBytes()), false))
                    .isInstanceOf(RedisFailureException.class);
        }
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void deleteFeedRemovesTheFeedsKeysThenItsRegistryEntryWithOneEvent(String which) throws Exception {
        ClusterSlotTarget second = cluster(which, SECOND);
        String feed = "{" + SECOND + "}" + UUID.randomUUID();
        ClusterSlotTarget registry = cluster(which, ThoonkKeys.FEEDS);
        Arrivals deleted = new Arrivals();
        JedisPubSub listener = new JedisPubSub() {
            @Override
            public void onMessage(String channel, String message) {
                deleted.add(message);
            }
        };
        try (JedisCluster jedis = client(second);
             Jedis subscriber = new Jedis(registry.host(), registry.port())) {
            Thread listening = new Thread(() -> subscriber.subscribe(listener, ThoonkKeys.DELFEED));
            listening.start();
            assertThat(ServerPoll.until(() -> subscribers(registry, ThoonkKeys.DELFEED.getBytes()) == 1, BOUND)).isTrue();
            Feeds feeds = new Feeds(RedisConnections.of(jedis), "me");
            assertThat(feeds.create(feed)).isTrue();
            new JobFeed(jedis, feed, null).put("x");
            assertThat(keysOn(second, SECOND)).isPositive();
            assertThat(feeds.delete(feed)).isTrue();
            assertThat(feeds.exists(feed)).isFalse();
            try (Jedis owner = new Jedis(second.host(), second.port())) {
                assertThat(owner.exists(new ThoonkKeys(feed).all())).as("the feed's keys").isZero();
            }
            assertThat(feeds.delete(feed)).as("a second delete finds nothing").isFalse();
            assertThatThrownBy(() -> feeds.delete("untagged")).isInstanceOf(IllegalArgumentException.class);
            // a marker published after both deletes: everything before it has been delivered when it arrives
            try (Jedis publisher = new Jedis(registry.host(), registry.port())) {
                publisher.publish(ThoonkKeys.DELFEED, "marker");
            }
            assertThat(deleted.await("marker", BOUND)).isTrue();
            listener.unsubscribe();
            listening.join(BOUND.toMillis());
            assertThat(deleted.values()).containsExactly(feed + "\u0000me", "marker");
        }
    }
}
