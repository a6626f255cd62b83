package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many clients at once on shared lists, on real Redis and on the simulator: producers push unique items while
 * consumers take them with BLPOP, BRPOP and BLMOVE (short timeouts). Afterwards, once the rest is drained, every
 * pushed item was received exactly once: nothing lost, nothing duplicated.
 */
class BlockingStressTest {
    private static final int PRODUCERS = 20;
    private static final int CONSUMERS = 34;
    private static final long RUN_MILLIS = 3_000;
    private static final String[] QUEUES = {"stress:q0", "stress:q1", "stress:q2"};
    private static final String MOVED = "stress:moved";

    @Test
    void everyItemIsReceivedExactlyOnceOnRealRedis() throws InterruptedException {
        run(SharedTargets.reference());
    }

    @Test
    void everyItemIsReceivedExactlyOnceOnTheSimulator() throws InterruptedException {
        run(SharedTargets.simulator());
    }

    private static void run(RedisTarget target) throws InterruptedException {
        try (RespClient admin = new RespClient(target.host(), target.port())) {
            admin.call("FLUSHALL");
        }
        ConcurrentLinkedQueue<String> sent = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> received = new ConcurrentLinkedQueue<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long stopAt = System.currentTimeMillis() + RUN_MILLIS;
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int producer = p;
            threads.add(new Thread(() -> produce(target, producer, stopAt, sent), "producer-" + p));
        }
        for (int c = 0; c < CONSUMERS; c++) {
            int consumer = c;
            threads.add(new Thread(() -> consume(target, consumer, stopAt, received), "consumer-" + c));
        }
        for (Thread t : threads) {
            t.setUncaughtExceptionHandler((th, e) -> failure.compareAndSet(null, e));
            t.start();
        }
        for (Thread t : threads) {
            t.join(RUN_MILLIS + 30_000);
            assertThat(t.isAlive()).as(t.getName() + " still running").isFalse();
        }
        assertThat(failure.get()).as("a client thread failed").isNull();
        int popped = received.size();
        drain(target, received);
        System.out.printf("blocking stress on %-12s %d clients, %d items pushed, %d popped by BLPOP/BRPOP, %d drained"
                + " (moved by BLMOVE or left over)%n", target.name(), PRODUCERS + CONSUMERS, sent.size(), popped,
                received.size() - popped);

        assertThat(sent).as("items pushed").isNotEmpty();
        Map<String, Integer> counts = new HashMap<>();
        for (String item : received) {
            counts.merge(item, 1, Integer::sum);
        }
        List<String> duplicated = counts.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList();
        List<String> lost = sent.stream().filter(item -> !counts.containsKey(item)).toList();
        assertThat(duplicated).as("received more than once on " + target.name()).isEmpty();
        assertThat(lost).as("never received on " + target.name()).isEmpty();
        assertThat(received).as("count out = count in on " + target.name()).hasSize(sent.size());
    }

    private static void produce(RedisTarget target, int producer, long stopAt, ConcurrentLinkedQueue<String> sent) {
        try (RespClient client = new RespClient(target.host(), target.port())) {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int n = 0; System.currentTimeMillis() < stopAt; n++) {
                String item = "p" + producer + "-" + n;
                String queue = QUEUES[random.nextInt(QUEUES.length)];
                RespValue reply = random.nextBoolean() ? client.call("RPUSH", queue, item) : client.call("LPUSH", queue, item);
                assertThat(reply.isError()).as(reply.toString()).isFalse();
                sent.add(item);
                if (n % 8 == 0) {
                    Thread.yield(); // let consumers block now and then, so pushes also serve waiting clients
                }
            }
        }
    }

    private static void consume(RedisTarget target, int consumer, long stopAt, ConcurrentLinkedQueue<String> received) {
        try (RespClient client = new RespClient(target.host(), target.port())) {
            while (System.currentTimeMillis() < stopAt) {
                switch (consumer % 3) {
                    case 0 -> takePopped(client.call("BLPOP", QUEUES[0], QUEUES[1], QUEUES[2], "0.05"), received);
                    case 1 -> takePopped(client.call("BRPOP", QUEUES[2], QUEUES[1], QUEUES[0], "0.05"), received);
                    default -> {
                        // moved items are counted when the moved list is drained at the end
                        RespValue reply = client.call("BLMOVE", QUEUES[consumer % QUEUES.length], MOVED, "LEFT", "RIGHT", "0.05");
                        assertThat(reply.isError()).as(reply.toString()).isFalse();
                    }
                }
            }
        }
    }

    private static void takePopped(RespValue reply, ConcurrentLinkedQueue<String> received) {
        assertThat(reply.isError()).as(reply.toString()).isFalse();
        if (reply.children() != null) {
            received.add(reply.children().get(1).text());
        }
    }

    private static void drain(RedisTarget target, ConcurrentLinkedQueue<String> received) {
        try (RespClient client = new RespClient(target.host(), target.port())) {
            for (String key : new String[] {QUEUES[0], QUEUES[1], QUEUES[2], MOVED}) {
                while (true) {
                    RespValue item = client.call("LPOP", key);
                    if (item.text() == null) {
                        break;
                    }
                    received.add(item.text());
                }
            }
        }
    }
}
