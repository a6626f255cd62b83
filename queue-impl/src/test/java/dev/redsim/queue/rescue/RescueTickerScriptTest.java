package dev.redsim.queue.rescue;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;
import redis.clients.jedis.Jedis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scripted ticker (decision 0039): the client reads the due templates and computes their ticks with Cron, the
 * script emits only where the template's next tick is still the one read. Two tickers that read the same due ticks
 * emit each tick once, whichever runs its script first; threads racing tick after tick do too. Both targets.
 */
class RescueTickerScriptTest {
    private static final long START = 1_700_000_000_000L; // 2023-11-14T22:13:20Z

    @AcrossTargets
    void tickersThatReadTheSameDueTicksEmitEachTickOnce(RedisTarget target) {
        flush(target);
        String queue = "ticker-read";
        ManualClock clock = new ManualClock(START);
        try (Jedis first = new Jedis(target.host(), target.port());
             Jedis second = new Jedis(target.host(), target.port())) {
            RescueEngine setup = new RescueEngine(first, clock, RescueOptions.of(queue, "setup"));
            setup.create(cron("a", "minute"));
            setup.create(cron("b", "5 minutes"));
            setup.create(cron("c", "hour at **:30"));
            setup.create(cron("d", "day")); // not due
            clock.advance(17 * 60_000); // 22:30:20
            RescueKeys keys = new RescueKeys(queue);
            RescueScripts one = new RescueScripts(first, clock, RescueOptions.of(queue, "t1"), keys);
            RescueScripts other = new RescueScripts(second, clock, RescueOptions.of(queue, "t2"), keys);
            Instant now = clock.instant();
            List<RescueScripts.Tick> readByOne = one.dueTicks(now);
            List<RescueScripts.Tick> readByOther = other.dueTicks(now);
            assertThat(readByOne).extracting(RescueScripts.Tick::id).containsExactly("1", "2", "3");
            assertThat(readByOther).isEqualTo(readByOne);

            assertThat(one.tick(readByOne, now)).isEqualTo(3);
            assertThat(other.tick(readByOther, now)).as("the ticks were taken: nothing more").isZero();

            List<Task> tasks = setup.list();
            assertThat(tasks.stream().filter(t -> !t.isTemplate())).hasSize(3)
                    .extracting(t -> t.core().get(Labels.ORIGIN)).containsExactly("1", "2", "3");
            assertThat(tasks.stream().filter(Task::isTemplate))
                    .extracting(t -> t.cron().get(Labels.TICK_NEXT)).containsExactly("2023-11-14T22:31:00.000000Z",
                            "2023-11-14T22:35:00.000000Z", "2023-11-14T23:30:00.000000Z", "2023-11-15T00:00:00.000000Z");
            assertThat(other.dueTicks(now)).isEmpty();
        }
    }

    @AcrossTargets
    void twoTickerThreadsEmitEachTickOnce(RedisTarget target) throws Exception {
        flush(target);
        String queue = "ticker-race";
        int templates = 6;
        int rounds = 40;
        ManualClock clock = new ManualClock(START);
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            RescueEngine setup = new RescueEngine(jedis, clock, RescueOptions.of(queue, "setup"));
            for (int i = 0; i < templates; i++) {
                setup.create(cron("t" + i, i % 2 == 0 ? "minute" : "2 minutes"));
            }
            // A round is one minute: "minute" templates tick every round, "2 minutes" every other.
            CyclicBarrier barrier = new CyclicBarrier(2, () -> clock.advance(60_000));
            AtomicInteger emitted = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(2);
            List<Future<?>> runs = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                String name = "t" + w;
                runs.add(pool.submit(() -> {
                    try (Jedis own = new Jedis(target.host(), target.port())) {
                        RescueEngine ticker = new RescueEngine(own, clock, RescueOptions.of(queue, name));
                        for (int r = 0; r < rounds; r++) {
                            barrier.await(30, TimeUnit.SECONDS);
                            emitted.addAndGet(ticker.ticker());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get(120, TimeUnit.SECONDS);
            }
            pool.shutdown();
            int expected = templates / 2 * rounds + templates / 2 * (rounds / 2);
            assertThat(emitted.get()).isEqualTo(expected);
            assertThat(setup.list().stream().filter(t -> !t.isTemplate())).hasSize(expected);
        }
    }

    private static Task cron(String name, String every) {
        return Task.withMeta(Map.of("x.api.io/object", name)).with(Task.Section.CRON, Map.of(Labels.EVERY, every));
    }

    private static void flush(RedisTarget target) {
        try (RespClient admin = new RespClient(target.host(), target.port())) {
            admin.call("FLUSHALL");
        }
    }
}
