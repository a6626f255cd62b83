package dev.redsim.conformance;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.JedisShardedPubSub;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Jedis's cluster client subscribing to shard channels of every node (SSUBSCRIBE goes to the node serving the
 * channel's slot) and publishing to them with SPUBLISH, on the simulated and on a real 3-master cluster: each message
 * reaches its subscriber, and the subscription lives on the serving node only. A plain PUBLISH on one node reaches a
 * subscriber of another, as Redis carries it over the cluster bus. The waits are bounded waits for a delivery, never
 * a sleep.
 */
class ShardedPubSubClusterTest {
    private static final long WAIT_SECONDS = 10;

    /** Shard channels served by node 0, 1 and 2 (slot ranges 0-5460, 5461-10922, 10923-16383). */
    private static final List<String> CHANNELS = List.of("orders:{b}", "orders:{c}", "orders:{foo}");

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void spublishReachesTheShardSubscriberOfEveryNode(String which) throws Exception {
        try (ClusterUnderTest cluster = ClusterUnderTest.start(which);
             JedisCluster subscriberClient = new JedisCluster(seed(cluster));
             JedisCluster publisher = new JedisCluster(seed(cluster))) {
            List<Listener> listeners = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (String channel : CHANNELS) {
                Listener listener = new Listener();
                listeners.add(listener);
                Thread thread = new Thread(() -> subscriberClient.ssubscribe(listener, channel), "ssubscribe " + channel);
                thread.start();
                threads.add(thread);
                assertThat(listener.subscribed.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("subscribed to %s", channel)
                        .isTrue();
            }
            for (int i = 0; i < CHANNELS.size(); i++) {
                String channel = CHANNELS.get(i);
                assertThat(publisher.spublish(channel, "m" + i)).as("receivers of %s", channel).isEqualTo(1L);
                assertThat(listeners.get(i).messages.poll(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(channel + "=m" + i);
                // the subscription lives on the node serving the channel, and nowhere else
                for (int node = 0; node < 3; node++) {
                    try (Jedis direct = new Jedis(cluster.host(), cluster.ports().get(node))) {
                        List<?> counts = (List<?>) direct.sendCommand(() -> "PUBSUB".getBytes(), "SHARDNUMSUB", channel);
                        assertThat(counts.get(1)).as("%s on node %d", channel, node).isEqualTo(node == i ? 1L : 0L);
                    }
                }
            }
            for (Listener listener : listeners) {
                listener.sunsubscribe();
            }
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
                assertThat(thread.isAlive()).isFalse();
            }
            assertThat(listeners).allSatisfy(listener -> assertThat(listener.messages).isEmpty());
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void publishOnOneNodeReachesSubscribersOfTheOthers(String which) throws Exception {
        try (ClusterUnderTest cluster = ClusterUnderTest.start(which);
             Jedis subscriberOnNode2 = new Jedis(cluster.host(), cluster.ports().get(2));
             Jedis publisherOnNode0 = new Jedis(cluster.host(), cluster.ports().get(0))) {
            BlockingQueue<String> messages = new LinkedBlockingQueue<>();
            CountDownLatch subscribed = new CountDownLatch(1);
            JedisPubSub listener = new JedisPubSub() {
                @Override
                public void onSubscribe(String channel, int count) {
                    subscribed.countDown();
                }

                @Override
                public void onMessage(String channel, String message) {
                    messages.add(channel + "=" + message);
                }
            };
            Thread thread = new Thread(() -> subscriberOnNode2.subscribe(listener, "news"), "subscribe news");
            thread.start();
            assertThat(subscribed.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            // the reply counts the publishing node's receivers; the message goes to every node
            assertThat(publisherOnNode0.publish("news", "hello")).isZero();
            assertThat(messages.poll(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("news=hello");
            listener.unsubscribe();
            thread.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            assertThat(thread.isAlive()).isFalse();
        }
    }

    private static Set<HostAndPort> seed(ClusterUnderTest cluster) {
        return Set.of(new HostAndPort(cluster.host(), cluster.ports().get(0)));
    }

    /** Collects a sharded subscription's messages as "channel=message". */
    private static final class Listener extends JedisShardedPubSub {
        final CountDownLatch subscribed = new CountDownLatch(1);
        final BlockingQueue<String> messages = new LinkedBlockingQueue<>();

        @Override
        public void onSSubscribe(String channel, int subscribedChannels) {
            subscribed.countDown();
        }

        @Override
        public void onSMessage(String channel, String message) {
            messages.add(channel + "=" + message);
        }
    }

    /**
     * A slot moved to another node (redis-cli reshard's SETSLOT NODE on both ends) takes its shard channels'
     * subscribers on the former owner with it: each is told by a sunsubscribe (removeChannelsInSlot), as on a real
     * cluster; a subscription of another slot of that node stays.
     */
    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void aSlotMovedAwayUnsubscribesItsShardSubscribers(String which) throws Exception {
        try (ClusterUnderTest cluster = ClusterUnderTest.start(which);
             dev.redsim.conformance.resp.RespClient moved = shardSubscriber(cluster, 1, "c");
             dev.redsim.conformance.resp.RespClient stays = shardSubscriber(cluster, 1, "g")) {
            cluster.startSlotMove(7365, 2).finish(); // c's slot; g's (7233) stays on node 1
            assertThat(moved.read().toString()).isEqualTo("*3\\r\\n$12\\r\\nsunsubscribe\\r\\n$1\\r\\nc\\r\\n:0\\r\\n");
            try (Jedis node1 = new Jedis(cluster.host(), cluster.ports().get(1))) {
                assertThat(node1.sendCommand(() -> "SPUBLISH".getBytes(), "g", "m")).isEqualTo(1L);
            }
            assertThat(stays.read().toString()).contains("smessage").contains("$1\\r\\nm\\r\\n");
        }
    }

    /**
     * After a failover the former master's shard subscribers are unsubscribed (its slots passed to another node);
     * the promoted replica's stay subscribed and receive what is published on it.
     */
    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void aFailoverUnsubscribesTheFormerMastersShardSubscribers(String which) throws Exception {
        try (ClusterUnderTest cluster = ClusterUnderTest.start(which, 1);
             dev.redsim.conformance.resp.RespClient onMaster = shardSubscriber(cluster, 0, "b");
             dev.redsim.conformance.resp.RespClient onReplica = shardSubscriber(cluster, 3, "b")) {
            cluster.failover(0);
            assertThat(onMaster.read().toString()).isEqualTo("*3\\r\\n$12\\r\\nsunsubscribe\\r\\n$1\\r\\nb\\r\\n:0\\r\\n");
            try (Jedis promoted = new Jedis(cluster.host(), cluster.ports().get(3))) {
                assertThat(promoted.sendCommand(() -> "SPUBLISH".getBytes(), "b", "after")).isEqualTo(1L);
            }
            assertThat(onReplica.read().toString()).contains("smessage").contains("after");
        }
    }

    /** A raw connection to a node, subscribed to one shard channel (its confirmation read), reading with a bound. */
    private static dev.redsim.conformance.resp.RespClient shardSubscriber(ClusterUnderTest cluster, int node,
                                                                         String channel) {
        var client = new dev.redsim.conformance.resp.RespClient(cluster.host(), cluster.ports().get(node));
        client.setTimeoutMillis((int) TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        assertThat(client.call("SSUBSCRIBE", channel).toString()).contains("ssubscribe");
        return client;
    }
}
