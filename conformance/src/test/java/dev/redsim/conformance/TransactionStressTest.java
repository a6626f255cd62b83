package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many clients run optimistic WATCH / read / MULTI / write / EXEC retry loops on the same few keys for a
 * bounded time, on real Redis and on the simulator. Afterwards every committed transaction must show up
 * exactly once and no aborted one at all: a read-modify-write counter (lost updates if WATCH missed a change),
 * an INCRBY counter and a list (count in = count out, no element lost or duplicated).
 */
class TransactionStressTest {
    private static final int CLIENTS = 50;
    private static final long RUN_MILLIS = 3_000;
    /** A cap per client, so a very fast machine still does bounded work. */
    private static final int MAX_COMMITS_PER_CLIENT = 2_000;

    private static final String COUNTER = "txstress:counter";
    private static final String TOTAL = "txstress:total";
    private static final String LIST = "txstress:list";

    static List<RedisTarget> targets() {
        return List.of(SharedTargets.reference(), SharedTargets.simulator());
    }

    /** What one client committed. */
    private record Outcome(int commits, long incremented, List<String> pushed, int aborts) {
    }

    @ParameterizedTest(autoCloseArguments = false)
    @MethodSource("targets")
    void committedTransactionsAreAllThereExactlyOnce(RedisTarget target) throws Exception {
        try (RespClient admin = new RespClient(target.host(), target.port())) {
            admin.call("DEL", COUNTER, TOTAL, LIST);
        }
        long deadline = System.currentTimeMillis() + RUN_MILLIS;
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        List<Future<Outcome>> futures = new ArrayList<>();
        try {
            for (int i = 0; i < CLIENTS; i++) {
                int clientNo = i;
                futures.add(pool.submit(() -> runClient(target, clientNo, deadline)));
            }
            List<Outcome> outcomes = new ArrayList<>();
            for (Future<Outcome> f : futures) {
                outcomes.add(f.get(RUN_MILLIS + 30_000, TimeUnit.MILLISECONDS));
            }
            check(target, outcomes);
        } finally {
            pool.shutdownNow();
        }
    }

    private static Outcome runClient(RedisTarget target, int clientNo, long deadline) {
        int commits = 0;
        int aborts = 0;
        long incremented = 0;
        List<String> pushed = new ArrayList<>();
        try (RespClient c = new RespClient(target.host(), target.port())) {
            while (System.currentTimeMillis() < deadline && commits < MAX_COMMITS_PER_CLIENT) {
                int by = 1 + (commits + clientNo) % 5;
                String item = clientNo + ":" + commits;
                c.call("WATCH", COUNTER);
                RespValue current = c.call("GET", COUNTER);
                long value = current.text() == null ? 0 : Long.parseLong(current.text());
                assertThat(c.call("MULTI").text()).isEqualTo("OK");
                assertThat(c.call("SET", COUNTER, Long.toString(value + 1)).text()).isEqualTo("QUEUED");
                assertThat(c.call("INCRBY", TOTAL, Integer.toString(by)).text()).isEqualTo("QUEUED");
                assertThat(c.call("RPUSH", LIST, item).text()).isEqualTo("QUEUED");
                RespValue result = c.call("EXEC");
                if (result.isAggregate()) {
                    assertThat(result.children()).hasSize(3);
                    assertThat(result.children().get(0).text()).isEqualTo("OK");
                    commits++;
                    incremented += by;
                    pushed.add(item);
                } else {
                    assertThat(result.type()).isEqualTo('*'); // RESP2 null array: a watched key changed
                    aborts++;
                }
            }
        }
        return new Outcome(commits, incremented, pushed, aborts);
    }

    private static void check(RedisTarget target, List<Outcome> outcomes) {
        int commits = outcomes.stream().mapToInt(Outcome::commits).sum();
        long incremented = outcomes.stream().mapToLong(Outcome::incremented).sum();
        Set<String> pushed = new HashSet<>();
        outcomes.forEach(o -> pushed.addAll(o.pushed()));
        int aborts = outcomes.stream().mapToInt(Outcome::aborts).sum();
        System.out.printf("transaction stress on %s: %d clients, %d committed, %d aborted by WATCH%n",
                target.name(), CLIENTS, commits, aborts);
        assertThat(commits).as("transactions committed on %s", target.name()).isGreaterThan(CLIENTS);
        try (RespClient c = new RespClient(target.host(), target.port())) {
            assertThat(c.call("GET", COUNTER).asLong()).as("read-modify-write counter").isEqualTo(commits);
            assertThat(c.call("GET", TOTAL).asLong()).as("INCRBY total").isEqualTo(incremented);
            List<RespValue> items = c.call("LRANGE", LIST, "0", "-1").children();
            List<String> listed = new ArrayList<>(items.size());
            items.forEach(v -> listed.add(v.text()));
            assertThat(listed).as("pushed items").hasSize(commits).doesNotHaveDuplicates();
            assertThat(new HashSet<>(listed)).isEqualTo(pushed);
            c.call("DEL", COUNTER, TOTAL, LIST);
        }
    }
}
