package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fifty clients at once on shared keys, for a bounded time: producers push items (half of them inside
 * WATCH/MULTI/EXEC transactions that also count them) and publish each one, consumers take them with BLPOP,
 * subscribers count the messages. Afterwards nothing is lost or duplicated: every pushed item was taken exactly
 * once, the counter equals the committed transactions, and the subscribers received exactly what PUBLISH
 * reported. Run on real Redis and on the simulator alike.
 */
class MixedStressTest {
    private static final int PRODUCERS = 20;
    private static final int CONSUMERS = 20;
    private static final int SUBSCRIBERS = 10;
    private static final long RUN_MILLIS = 3000;

    @ParameterizedTest
    @ValueSource(strings = {"redis", "simulator"})
    void nothingLostNothingDuplicated(String which) throws Exception {
        RedisTarget target = which.equals("redis") ? SharedTargets.reference() : SharedTargets.simulator();
        try (RespClient admin = new RespClient(target.host(), target.port())) {
            admin.call("DEL", "stress:q", "stress:counter");
        }
        ConcurrentLinkedQueue<String> pushed = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> taken = new ConcurrentLinkedQueue<>();
        AtomicLong committed = new AtomicLong();
        AtomicLong published = new AtomicLong();
        AtomicLong delivered = new AtomicLong();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());

        CountDownLatch subscribed = new CountDownLatch(SUBSCRIBERS);
        List<Thread> subscribers = new ArrayList<>();
        for (int s = 0; s < SUBSCRIBERS; s++) {
            subscribers.add(start(failures, () -> subscriber(target, subscribed, delivered)));
        }
        assertThat(subscribed.await(10, TimeUnit.SECONDS)).isTrue();

        long deadline = System.currentTimeMillis() + RUN_MILLIS;
        List<Thread> workers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int id = p;
            workers.add(start(failures, () -> producer(target, id, deadline, pushed, committed, published)));
        }
        for (int c = 0; c < CONSUMERS; c++) {
            workers.add(start(failures, () -> consumer(target, deadline, taken)));
        }
        for (Thread t : workers) {
            t.join(TimeUnit.SECONDS.toMillis(30));
        }
        try (RespClient admin = new RespClient(target.host(), target.port())) {
            RespValue rest;
            while ((rest = admin.call("LPOP", "stress:q")).data() != null) {
                taken.add(rest.text());
            }
            admin.call("PUBLISH", "stress:ch", "end");
            for (Thread t : subscribers) {
                t.join(TimeUnit.SECONDS.toMillis(30));
            }
            System.out.printf("mixed stress on %-9s %d clients, %d items pushed and taken once, %d transactions committed,"
                    + " %d messages delivered%n", which, PRODUCERS + CONSUMERS + SUBSCRIBERS, pushed.size(),
                    committed.get(), delivered.get());
            assertThat(failures).as("client errors on %s", which).isEmpty();
            assertThat(taken).as("%s: every pushed item taken exactly once", which)
                    .hasSameSizeAs(pushed).containsExactlyInAnyOrderElementsOf(pushed);
            assertThat(admin.call("GET", "stress:counter").text())
                    .as("%s: counter equals committed transactions", which).isEqualTo(Long.toString(committed.get()));
            assertThat(delivered.get()).as("%s: messages delivered as PUBLISH reported", which).isEqualTo(published.get());
            assertThat(pushed.size()).as("%s: the run did real work", which).isGreaterThan(100);
            admin.call("DEL", "stress:q", "stress:counter");
        }
    }

    private static void producer(RedisTarget target, int id, long deadline, ConcurrentLinkedQueue<String> pushed,
                                 AtomicLong committed, AtomicLong published) {
        try (RespClient c = new RespClient(target.host(), target.port())) {
            for (int n = 0; System.currentTimeMillis() < deadline; n++) {
                String item = "p" + id + "-" + n;
                boolean inTransaction = n % 2 == 0;
                if (inTransaction) {
                    c.call("WATCH", "stress:counter");
                    c.call("GET", "stress:counter");
                    c.call("MULTI");
                    c.call("INCR", "stress:counter");
                    c.call("RPUSH", "stress:q", item);
                    RespValue result = c.call("EXEC");
                    if (result.children() == null) {
                        continue; // a watched key changed: nothing of the transaction happened
                    }
                    committed.incrementAndGet();
                } else {
                    c.call("RPUSH", "stress:q", item);
                }
                pushed.add(item);
                published.addAndGet(c.call("PUBLISH", "stress:ch", item).asLong());
            }
        }
    }

    private static void consumer(RedisTarget target, long deadline, ConcurrentLinkedQueue<String> taken) {
        try (RespClient c = new RespClient(target.host(), target.port())) {
            while (System.currentTimeMillis() < deadline) {
                RespValue reply = c.call("BLPOP", "stress:q", "0.05");
                if (reply.children() != null) {
                    taken.add(reply.children().get(1).text());
                }
            }
        }
    }

    private static void subscriber(RedisTarget target, CountDownLatch subscribed, AtomicLong delivered) {
        try (RespClient c = new RespClient(target.host(), target.port())) {
            c.setTimeoutMillis(60_000);
            c.call("SUBSCRIBE", "stress:ch");
            subscribed.countDown();
            Map<String, Integer> seen = new HashMap<>();
            while (true) {
                RespValue message = c.read();
                String payload = message.children().get(2).text();
                if (payload.equals("end")) {
                    return;
                }
                if (seen.merge(payload, 1, Integer::sum) > 1) {
                    throw new AssertionError("message delivered twice to one subscriber: " + payload);
                }
                delivered.incrementAndGet();
            }
        }
    }

    private static Thread start(List<Throwable> failures, Runnable body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failures.add(e);
            }
        });
        t.start();
        return t;
    }
}
