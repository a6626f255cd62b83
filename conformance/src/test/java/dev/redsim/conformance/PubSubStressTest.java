package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many connections at once on one channel: concurrent publishers, 50 subscribers (by channel and by pattern).
 * On both targets every message reaches every subscriber exactly once, each publisher's messages in the order it
 * sent them, and the receiver counts PUBLISH returned add up to the messages delivered (count in = count out).
 */
class PubSubStressTest {
    private static final int SUBSCRIBERS = 50;
    private static final int PATTERN_SUBSCRIBERS = 10;
    private static final int PUBLISHERS = 5;
    private static final int MESSAGES_EACH = 200;

    static List<RedisTarget> targets() {
        return List.of(SharedTargets.reference(), SharedTargets.simulator());
    }

    @ParameterizedTest(autoCloseArguments = false)
    @MethodSource("targets")
    void everyMessageReachesEverySubscriberOnceAndInOrder(RedisTarget target) throws Exception {
        List<RespClient> subscribers = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(PUBLISHERS + SUBSCRIBERS);
        try {
            for (int i = 0; i < SUBSCRIBERS; i++) {
                RespClient s = new RespClient(target.host(), target.port());
                subscribers.add(s);
                RespValue confirmation = i < PATTERN_SUBSCRIBERS ? s.call("PSUBSCRIBE", "stress:*")
                        : s.call("SUBSCRIBE", "stress:jobs");
                assertThat(confirmation.children().get(2).asLong()).isEqualTo(1);
            }
            List<Future<int[]>> readers = new ArrayList<>();
            for (RespClient s : subscribers) {
                readers.add(pool.submit(() -> readAll(s)));
            }
            List<Future<Long>> publishers = new ArrayList<>();
            for (int p = 0; p < PUBLISHERS; p++) {
                int publisher = p;
                publishers.add(pool.submit(() -> publish(target, publisher)));
            }
            long receivers = 0;
            for (Future<Long> f : publishers) {
                receivers += f.get();
            }
            long delivered = 0;
            for (Future<int[]> f : readers) {
                int[] lastSeen = f.get();
                for (int p = 0; p < PUBLISHERS; p++) {
                    assertThat(lastSeen[p]).as("last message of publisher %d", p).isEqualTo(MESSAGES_EACH - 1);
                }
                delivered += (long) PUBLISHERS * MESSAGES_EACH;
            }
            assertThat(receivers).isEqualTo((long) SUBSCRIBERS * PUBLISHERS * MESSAGES_EACH).isEqualTo(delivered);
            try (RespClient admin = new RespClient(target.host(), target.port())) {
                assertThat(admin.call("PUBSUB", "NUMSUB", "stress:jobs").children().get(1).asLong())
                        .isEqualTo(SUBSCRIBERS - PATTERN_SUBSCRIBERS);
            }
            for (RespClient s : subscribers) {
                s.call("RESET"); // leaves the shared targets without our subscriptions
            }
        } finally {
            pool.shutdownNow();
            subscribers.forEach(RespClient::close);
        }
    }

    private static long publish(RedisTarget target, int publisher) {
        long receivers = 0;
        try (RespClient c = new RespClient(target.host(), target.port())) {
            for (int seq = 0; seq < MESSAGES_EACH; seq++) {
                receivers += c.call("PUBLISH", "stress:jobs", publisher + ":" + seq).asLong();
            }
        }
        return receivers;
    }

    /** Reads every expected message; checks each publisher's sequence arrives gap-free and in order. */
    private static int[] readAll(RespClient subscriber) {
        int[] lastSeen = new int[PUBLISHERS];
        java.util.Arrays.fill(lastSeen, -1);
        for (int n = 0; n < PUBLISHERS * MESSAGES_EACH; n++) {
            List<RespValue> frame = subscriber.read().children();
            String payload = frame.get(frame.size() - 1).text();
            int colon = payload.indexOf(':');
            int publisher = Integer.parseInt(payload.substring(0, colon));
            int seq = Integer.parseInt(payload.substring(colon + 1));
            assertThat(seq).as("publisher %d", publisher).isEqualTo(lastSeen[publisher] + 1);
            lastSeen[publisher] = seq;
        }
        return lastSeen;
    }
}
