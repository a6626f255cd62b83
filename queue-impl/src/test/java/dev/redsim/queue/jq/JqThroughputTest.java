package dev.redsim.queue.jq;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import dev.redsim.queue.jq.client.JqPusher;
import dev.redsim.queue.jq.client.JqWorker;
import dev.redsim.queue.jq.master.JqMaster;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.msgpack.value.ValueFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A printed figure, not a test of speed: jobs per second through the whole master on 127.0.0.1, HTTP push ->
 * long-poll worker -> outcome -> result taken by the pusher, on each target. Bounded by a job count
 * (-Dredsim.jq.benchJobs, default 2000) and a 60 s cap; only correctness is asserted.
 */
class JqThroughputTest {
    private static final int JOBS = Integer.getInteger("redsim.jq.benchJobs", 2000);
    private static final int PUSHERS = 4;
    private static final int WORKERS = 4;

    @ParameterizedTest
    @ValueSource(strings = {"simulator", "reference"})
    void pushRunFetch(String name) throws Exception {
        RedisTarget target = name.equals("simulator") ? SharedTargets.simulator() : SharedTargets.reference();
        CountDownLatch ran = new CountDownLatch(JOBS);
        ExecutorService pushers = Executors.newFixedThreadPool(PUSHERS);
        try (JqMaster master = JqMasterTest.startOn(target);
             RespClient stats = new RespClient(target.host(), target.port());
             JqWorker worker = new JqWorker(master.uri(), "bench", (n, argument) -> {
                 ran.countDown();
                 return argument;
             })) {
            JqPusher pusher = new JqPusher(master.uri());
            stats.call("CONFIG", "RESETSTAT");
            long start = System.nanoTime();
            worker.start(WORKERS);
            List<Long> ids = Collections.synchronizedList(new ArrayList<>());
            List<Future<?>> pushing = new ArrayList<>();
            for (int p = 0; p < PUSHERS; p++) {
                int first = p;
                pushing.add(pushers.submit(() -> {
                    for (int i = first; i < JOBS; i += PUSHERS) {
                        ids.add(pusher.enqueue(JqPusher.job("bench", ValueFactory.newInteger(i)).keepResult(true)));
                    }
                }));
            }
            for (Future<?> f : pushing) {
                f.get(60, TimeUnit.SECONDS);
            }
            assertThat(ran.await(60, TimeUnit.SECONDS)).as("all jobs ran within the cap").isTrue();
            int fetched = 0;
            for (long id : ids) {
                // The last outcomes may still be on their way from the worker: a bounded re-ask, no sleep.
                for (int probe = 0; probe < 10_000; probe++) {
                    if (pusher.takeResult(id).isPresent()) {
                        fetched++;
                        break;
                    }
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("jq master end to end on %s: %.0f jobs/s (%d jobs: %d HTTP pushers, %d long-poll"
                    + " workers, results taken)%n", target.name(), JOBS / seconds, JOBS, PUSHERS, WORKERS);
            System.out.printf("  per job on %s: %s%n", target.name(), commandsPerJob(stats));
            System.out.printf("  one HTTP round trip on %s (GET /jobs/{id}: one HGETALL): %.0f us%n", target.name(),
                    roundTripMicros(pusher, ids.get(0)));
            assertThat(fetched).isEqualTo(JOBS);
        } finally {
            pushers.shutdownNow();
        }
    }

    /** Redis commands per job (INFO commandstats over the run): where the master's round trips go. */
    private static String commandsPerJob(RespClient stats) {
        String info = stats.call("INFO", "commandstats").text();
        Map<String, Long> calls = new TreeMap<>();
        Matcher m = Pattern.compile("cmdstat_([a-z|]+):calls=(\\d+)").matcher(info);
        while (m.find()) {
            if (!m.group(1).startsWith("config") && !m.group(1).startsWith("info")) {
                calls.put(m.group(1), Long.parseLong(m.group(2)));
            }
        }
        long total = calls.values().stream().mapToLong(Long::longValue).sum();
        StringBuilder out = new StringBuilder(String.format("%.1f commands", total / (double) JOBS));
        for (String name : List.of("exec", "watch", "hgetall", "zrange")) {
            out.append(String.format(", %s %.2f", name, calls.getOrDefault(name, 0L) / (double) JOBS));
        }
        return out.toString();
    }

    private static double roundTripMicros(JqPusher pusher, long id) {
        int n = 500;
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            pusher.state(id);
        }
        return (System.nanoTime() - start) / 1e3 / n;
    }
}
