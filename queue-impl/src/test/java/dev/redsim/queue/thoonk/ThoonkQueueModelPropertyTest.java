package dev.redsim.queue.thoonk;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.property.Gen;
import dev.redsim.conformance.property.PropertyCheck;
import dev.redsim.conformance.target.RedisTarget;
import redis.clients.jedis.Jedis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Generated histories of put (normal and high priority) and get on a thoonk Queue, against a deque model: normal
 * puts are FIFO, high priority puts go ahead of everything (LIFO among themselves), a get returns the model's
 * next item or nothing when it is empty (with a zero timeout, so an empty get never waits), and feed.ids and
 * feed.items equal the model after every step (a got item leaves both).
 */
class ThoonkQueueModelPropertyTest {
    sealed interface Op {
    }

    record Put(boolean high) implements Op {
    }

    record Get() implements Op {
    }

    private static final Gen<Op> OP = Gen.frequency(List.of(
        new Gen.Weighted<>(3, random -> new Put(random.nextInt(4) == 0)),
        new Gen.Weighted<>(2, Gen.constant(new Get()))));

    @AcrossTargets
    void queuesFollowTheModel(RedisTarget target) {
        PropertyCheck<Op> check = new PropertyCheck<>(Gen.listOf(OP, 1, 30), ops -> holds(target, ops), 200);
        long seed = PropertyCheck.runSeed();
        PropertyCheck.Result<Op> result = check.run(seed, 60);
        if (!result.passed()) {
            throw new AssertionError("queue model failed on " + target.name() + " (run seed " + seed + "): "
                + result.failure().shrunk());
        }
        System.out.println("thoonk queue model on " + target.name() + ": " + result.casesRun() + " histories, "
            + result.elementsRun() + " steps");
    }

    /**
     * get(0) must answer at once (BRPOP 0 would block for ever): bounded here, so that a get that blocks fails
     * the run after 10 s (closing the connection to free the thread) instead of hanging it.
     */
    private static Queue.Item boundedGet(Queue queue, Jedis jedis) {
        java.util.concurrent.CompletableFuture<Queue.Item> got =
            java.util.concurrent.CompletableFuture.supplyAsync(() -> queue.get(Duration.ZERO));
        try {
            return got.get(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            jedis.close();
            throw new AssertionError("Queue.get(0) on an empty queue blocked for 10 s");
        } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
            throw new AssertionError("Queue.get(0) failed", e);
        }
    }

    private static boolean holds(RedisTarget target, List<Op> ops) {
        String name = "queue-" + UUID.randomUUID();
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            Queue queue = new Queue(jedis, name);
            // Head = next to be got.
            LinkedList<String> model = new LinkedList<>();
            Map<String, String> items = new HashMap<>();
            int n = 0;
            try {
                for (Op op : ops) {
                    if (op instanceof Put p) {
                        String item = "v" + n++;
                        String id = p.high() ? queue.putHighPriority(item) : queue.put(item);
                        if (p.high()) {
                            model.addFirst(id);
                        } else {
                            model.addLast(id);
                        }
                        items.put(id, item);
                    } else {
                        Queue.Item got = boundedGet(queue, jedis);
                        String expected = model.pollFirst();
                        if (expected == null ? got != null
                            : got == null || !got.id().equals(expected) || !got.item().equals(items.remove(expected))) {
                            return false;
                        }
                    }
                    // feed.ids runs from the LPUSH side to the BRPOP side: the model reversed.
                    List<String> ids = new ArrayList<>(model);
                    java.util.Collections.reverse(ids);
                    if (!queue.ids().equals(ids) || !jedis.hgetAll(new ThoonkKeys(name).items()).equals(items)) {
                        return false;
                    }
                }
                return true;
            } finally {
                jedis.del(new ThoonkKeys(name).all());
            }
        }
    }
}
