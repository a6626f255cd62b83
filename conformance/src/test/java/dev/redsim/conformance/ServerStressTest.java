package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fifty clients at once, on a fresh simulator and a fresh redis-server each: counters, ordered logs and
 * transactions moving units between two accounts; producers and consumers of blocking lists; a publisher and a
 * subscriber; and meanwhile clients that pause the others (CLIENT PAUSE WRITE and ALL), watch everything (MONITOR),
 * try SHUTDOWN ABORT and read and change the server's settings. Nothing may be lost or applied twice: every counter,
 * log, queue and message adds up, the accounts balance, and every client finishes within a bound (a hang fails the
 * test instead of stalling the build). Counts are fixed, not timed.
 */
class ServerStressTest {
    private static final int COUNTERS = 20;
    private static final int PAIRS = 10;
    private static final int ROUNDS = 300;
    private static final int MESSAGES = 500;
    private static final long BOUND_SECONDS = 120;

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void fiftyClientsMixingEverythingLoseNothing(String name) throws Exception {
        try (RedisTarget target = name.equals("simulator") ? new SimulatorTarget() : Targets.reference();
             RespClient checker = client(target)) {
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            List<Thread> workers = new ArrayList<>();
            AtomicBoolean workersDone = new AtomicBoolean();

            for (int w = 0; w < COUNTERS; w++) {
                int id = w;
                workers.add(thread("counter-" + id, failures, () -> counter(target, id)));
            }
            long[] consumed = new long[PAIRS];
            for (int p = 0; p < PAIRS; p++) {
                int id = p;
                workers.add(thread("producer-" + id, failures, () -> produce(target, id)));
                workers.add(thread("consumer-" + id, failures, () -> consumed[id] = consume(target, id)));
            }
            RespClient subscriber = client(target);
            subscriber.call("SUBSCRIBE", "stress:news");
            AtomicLong received = new AtomicLong();
            CountDownLatch allReceived = new CountDownLatch(1);
            Thread listening = thread("subscriber", failures, () -> {
                for (int i = 0; i < MESSAGES; i++) {
                    RespValue message = subscriber.read();
                    if (!message.children().get(2).text().equals("m" + i)) {
                        throw new AssertionError("message " + i + " is " + message);
                    }
                    received.incrementAndGet();
                }
                allReceived.countDown();
            });
            workers.add(thread("publisher", failures, () -> publish(target)));

            // the disruptors run until the workers are done
            RespClient monitor = client(target);
            monitor.call("MONITOR");
            AtomicLong monitored = new AtomicLong();
            Thread watching = thread("monitor", failures, () -> {
                while (!workersDone.get()) {
                    monitor.read();
                    monitored.incrementAndGet();
                }
            });
            List<Thread> disruptors = List.of(
                    thread("pauser", failures, () -> pause(target, workersDone)),
                    thread("admin", failures, () -> administer(target, workersDone)));

            workers.forEach(Thread::start);
            listening.start();
            watching.start();
            disruptors.forEach(Thread::start);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
            for (Thread worker : workers) {
                worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                assertThat(worker.isAlive()).as(worker.getName() + " finished within " + BOUND_SECONDS + " s").isFalse();
            }
            workersDone.set(true);
            for (Thread disruptor : disruptors) {
                disruptor.join(TimeUnit.SECONDS.toMillis(BOUND_SECONDS));
                assertThat(disruptor.isAlive()).as(disruptor.getName() + " finished").isFalse();
            }
            assertThat(allReceived.await(BOUND_SECONDS, TimeUnit.SECONDS)).as("every message arrived").isTrue();
            checker.call("PING"); // one more command for the monitor to see, so its reader wakes and stops
            watching.join(TimeUnit.SECONDS.toMillis(BOUND_SECONDS));
            monitor.close();
            subscriber.close();

            assertThat(failures).as("what went wrong in the clients").isEmpty();
            for (int w = 0; w < COUNTERS; w++) {
                assertThat(checker.call("GET", "stress:ctr:" + w).text()).isEqualTo(Integer.toString(ROUNDS));
                List<RespValue> log = checker.call("LRANGE", "stress:log:" + w, "0", "-1").children();
                assertThat(log).hasSize(ROUNDS);
                for (int i = 0; i < ROUNDS; i++) {
                    assertThat(log.get(i).text()).isEqualTo(Integer.toString(i));
                }
            }
            long moved = (long) COUNTERS * (ROUNDS / 10);
            assertThat(checker.call("GET", "stress:acct:a").asLong()).isEqualTo(-moved);
            assertThat(checker.call("GET", "stress:acct:b").asLong()).isEqualTo(moved);
            for (int p = 0; p < PAIRS; p++) {
                assertThat(consumed[p]).as("items consumed from queue " + p).isEqualTo(ROUNDS);
                assertThat(checker.call("EXISTS", "stress:q:" + p).asLong()).isZero();
            }
            assertThat(received.get()).isEqualTo(MESSAGES);
            assertThat(monitored.get()).as("lines MONITOR showed").isPositive();
            assertThat(checker.call("PING").text()).isEqualTo("PONG");
        }
    }

    /** INCR, an ordered log, and every tenth round a transaction moving one unit from account a to b. */
    private static void counter(RedisTarget target, int id) {
        try (RespClient c = client(target)) {
            for (int i = 0; i < ROUNDS; i++) {
                c.call("INCR", "stress:ctr:" + id);
                c.call("RPUSH", "stress:log:" + id, Integer.toString(i));
                if (i % 10 == 0) {
                    c.call("MULTI");
                    c.call("DECRBY", "stress:acct:a", "1");
                    c.call("INCRBY", "stress:acct:b", "1");
                    RespValue exec = c.call("EXEC");
                    if (exec.children().size() != 2) {
                        throw new AssertionError("EXEC answered " + exec);
                    }
                }
            }
        }
    }

    private static void produce(RedisTarget target, int id) {
        try (RespClient c = client(target)) {
            for (int i = 0; i < ROUNDS; i++) {
                c.call("RPUSH", "stress:q:" + id, Integer.toString(i));
            }
        }
    }

    /** BLPOP until every item came, in order. */
    private static long consume(RedisTarget target, int id) {
        try (RespClient c = client(target)) {
            long count = 0;
            while (count < ROUNDS) {
                RespValue popped = c.call("BLPOP", "stress:q:" + id, "8");
                if (popped.children() == null || popped.children().isEmpty()) {
                    throw new AssertionError("BLPOP timed out after " + count + " items");
                }
                String item = popped.children().get(1).text();
                if (!item.equals(Long.toString(count))) {
                    throw new AssertionError("item " + count + " is " + item);
                }
                count++;
            }
            return count;
        }
    }

    private static void publish(RedisTarget target) {
        try (RespClient c = client(target)) {
            for (int i = 0; i < MESSAGES; i++) {
                long receivers = c.call("PUBLISH", "stress:news", "m" + i).asLong();
                if (receivers != 1) {
                    throw new AssertionError("message " + i + " reached " + receivers + " subscribers");
                }
            }
        }
    }

    /** Short pauses of writes and of everything, lifted by hand or by their own end. */
    private static void pause(RedisTarget target, AtomicBoolean done) {
        try (RespClient c = client(target)) {
            for (int round = 0; !done.get(); round++) {
                if (round % 2 == 0) {
                    c.call("CLIENT", "PAUSE", "20", "WRITE");
                    c.call("PING");
                    c.call("CLIENT", "UNPAUSE");
                } else {
                    c.call("CLIENT", "PAUSE", "5", "ALL"); // ends by itself: this client's next command waits
                    c.call("PING");
                }
            }
        }
    }

    private static void administer(RedisTarget target, AtomicBoolean done) {
        try (RespClient c = client(target)) {
            for (int round = 0; !done.get(); round++) {
                String abort = c.call("SHUTDOWN", "ABORT").text();
                if (!abort.equals("ERR No shutdown in progress.")) {
                    throw new AssertionError("SHUTDOWN ABORT answered " + abort);
                }
                c.call("INFO");
                c.call("CLIENT", "LIST");
                c.call("SLOWLOG", "GET", "5");
                c.call("CONFIG", "SET", "slowlog-log-slower-than", round % 2 == 0 ? "0" : "10000");
                c.call("DBSIZE");
            }
        }
    }

    private static Thread thread(String name, ConcurrentLinkedQueue<String> failures, Runnable body) {
        Thread thread = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                failures.add(name + ": " + t);
            }
        }, "stress-" + name);
        thread.setDaemon(true);
        return thread;
    }

    private static RespClient client(RedisTarget target) {
        return new RespClient(target.host(), target.port());
    }
}
