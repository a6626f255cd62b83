package dev.redsim.queue.time;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.queue.conveyor.ConveyorClient;
import dev.redsim.queue.conveyor.ConveyorKeys;
import dev.redsim.queue.conveyor.ConveyorOptions;
import dev.redsim.queue.conveyor.Deadline;
import dev.redsim.queue.rescue.RescueClient;
import dev.redsim.queue.rescue.RescueOptions;
import dev.redsim.queue.rescue.Task;
import dev.redsim.queue.thoonk.JobFeed;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One facade instance per contract shared by four threads (the runtimes' producers' side): every job arrives once.
 * Their clock is Redis's TIME through the pool (none given).
 */
class SharedFacadesTest {
    private static final int THREADS = 4;
    private static final int EACH = 50;

    private static void concurrently(Runnable work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            done.add(pool.submit(() -> {
                for (int i = 0; i < EACH; i++) {
                    work.run();
                }
            }));
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        for (Future<?> f : done) {
            f.get();
        }
    }

    @AcrossTargets
    void oneInstanceOfEachFacadeServesManyThreads(RedisTarget target) throws Exception {
        String name = "shared-" + UUID.randomUUID();
        try (JedisPool pool = new JedisPool(target.host(), target.port());
             Jedis jedis = new Jedis(target.host(), target.port())) {
            JobFeed feed = new JobFeed(pool, name);
            concurrently(() -> feed.put("x"));
            assertThat(feed.ids()).hasSize(THREADS * EACH);

            ConveyorKeys keys = new ConveyorKeys("{" + name + "}:");
            ConveyorClient conveyor = new ConveyorClient(pool, ConveyorOptions.defaults(), keys, null);
            concurrently(() -> conveyor.add(Deadline.none(), dev.redsim.queue.conveyor.Job.of("q", null), false));
            assertThat(jedis.llen(keys.queue("q"))).isEqualTo(THREADS * EACH);

            RescueClient rescue = new RescueClient(pool, RescueOptions.of(name, "producer"), null);
            concurrently(() -> rescue.create(Task.withMeta(Map.of("x.api.io/object", "1"))));
            assertThat(rescue.list()).hasSize(THREADS * EACH);
            jedis.del(jedis.keys("*" + name + "*").toArray(new String[0]));
        }
    }
}
