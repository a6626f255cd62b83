package dev.redsim.queue.jq;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.queue.thoonk.ListenedConnection;
import org.msgpack.value.ValueFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

import dev.redsim.queue.jq.client.JqPusher;
import dev.redsim.queue.jq.client.JqWorker;
import dev.redsim.queue.jq.master.JqMaster;
import dev.redsim.queue.jq.master.MasterSettings;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Claims finish while producers enqueue: here a producer enqueues a job right before every EXEC a claimer sends
 * (the worst interleaving a steady stream of enqueues can produce). Every claim must commit at its first
 * attempt; a claim that watched the whole ready set was aborted by each of those enqueues and gave up (the master
 * answered that with HTTP 500). The second test does it end to end over HTTP. Both are about the WATCH/MULTI claim
 * (Transitions.OPTIMISTIC): a scripted claim sends no EXEC and cannot be aborted.
 */
class JqClaimLivenessTest {
    private static final long START = 1_700_000_000_000L;

    @AcrossTargets
    void claimsCommitWhileAJobIsEnqueuedBeforeEveryExec(RedisTarget target) {
        ManualClock clock = new ManualClock(START);
        AtomicInteger execs = new AtomicInteger();
        try (Jedis producerConnection = new Jedis(target.host(), target.port())) {
            producerConnection.flushAll();
            JobQueue producer = new JobQueue(producerConnection, JqKeys.standard(), clock, JqOptions.defaults());
            JobRequest job = new JobRequest("steady", Msgpack.encode(ValueFactory.newString("x")), 0, 0, false,
                    30_000);
            ListenedConnection listened = new ListenedConnection(new HostAndPort(target.host(), target.port()),
                    (sent, command) -> {
                        if (command.equalsIgnoreCase("EXEC")) {
                            if (execs.incrementAndGet() > 5_000) {
                                throw new IllegalStateException("5,000 claim attempts for 20 claims");
                            }
                            producer.enqueue(job);
                        }
                    });
            try (Jedis claimerConnection = new Jedis(listened)) {
                JobQueue claimer = new JobQueue(claimerConnection, JqKeys.standard(), clock,
                        JqOptions.defaults().withTransitions(dev.redsim.queue.script.Transitions.OPTIMISTIC));
                producer.enqueue(job);
                for (int i = 0; i < 20; i++) {
                    assertThat(claimer.claim("w")).as("claim %d", i).isPresent();
                }
                assertThat(execs.get()).as("EXECs for 20 claims: one each").isEqualTo(20);
            }
        }
    }

    /**
     * The same over HTTP, with many parties: the master's Redis connections pass a proxy that has a producer enqueue
     * a job right before every EXEC the master sends, while a pusher enqueues steadily over HTTP and two workers
     * claim and report over HTTP. Every claim gets a job (there always is one), no request fails (an HTTP 500 would
     * throw), and the master's EXECs stay within twice the ideal count (one per claim, report and push), so no claim
     * went round its retry loop.
     */
    @AcrossTargets
    void claimsOverHttpFinishWhileProducersEnqueueSteadily(RedisTarget target) throws Exception {
        int claimsPerWorker = 25;
        int pushes = 60;
        AtomicInteger hookEnqueues = new AtomicInteger();
        List<String> problems = new CopyOnWriteArrayList<>();
        try (Jedis producerConnection = new Jedis(target.host(), target.port())) {
            producerConnection.flushAll();
            JobQueue producer = new JobQueue(producerConnection, JqKeys.standard(), new ManualClock(START),
                JqOptions.defaults());
            JobRequest job = new JobRequest("steady", Msgpack.encode(ValueFactory.newString("x")), 0, 0, false,
                30_000);
            Runnable beforeExec = () -> {
                if (hookEnqueues.incrementAndGet() <= 5_000) {
                    synchronized (producer) {
                        producer.enqueue(job);
                    }
                }
            };
            try (ExecHookProxy proxy = new ExecHookProxy(target.host(), target.port(), beforeExec);
                 JqMaster master = JqMaster.start(URI.create("redis://127.0.0.1:" + proxy.port()), "127.0.0.1", 0,
                     MasterSettings.defaults().withOptions(JqOptions.defaults()
                         .withTransitions(dev.redsim.queue.script.Transitions.OPTIMISTIC)))) {
                JqPusher pusher = new JqPusher(master.uri());
                pusher.enqueue(JqPusher.job("steady", ValueFactory.newString("seed")));
                List<Thread> threads = new ArrayList<>();
                threads.add(new Thread(() -> {
                    for (int i = 0; i < pushes; i++) {
                        try {
                            pusher.enqueue(JqPusher.job("steady", ValueFactory.newString("p" + i)));
                        } catch (RuntimeException e) {
                            problems.add("push " + i + ": " + e);
                        }
                    }
                }, "pusher"));
                for (int w = 0; w < 2; w++) {
                    String name = "w" + w;
                    JqWorker worker = new JqWorker(master.uri(), name, (n, argument) -> ValueFactory.newNil());
                    threads.add(new Thread(() -> {
                        for (int i = 0; i < claimsPerWorker; i++) {
                            try {
                                if (!worker.runOnce(0)) {
                                    problems.add(name + " claim " + i + " found nothing while jobs were waiting");
                                }
                            } catch (RuntimeException e) {
                                problems.add(name + " claim " + i + ": " + e);
                            }
                        }
                    }, name));
                }
                threads.forEach(Thread::start);
                for (Thread t : threads) {
                    t.join(TimeUnit.SECONDS.toMillis(120));
                    assertThat(t.isAlive()).as("%s ended", t.getName()).isFalse();
                }
                int ideal = 2 * 2 * claimsPerWorker + pushes + 1;
                System.out.printf("jq claims over HTTP on %s: %d claims, %d pushes, %d EXECs (%d ideally), %d jobs "
                    + "enqueued before an EXEC%n", target.name(), 2 * claimsPerWorker, pushes, proxy.execs(), ideal,
                    hookEnqueues.get());
                assertThat(problems).isEmpty();
                assertThat(proxy.execs()).as("the master's EXECs, %d ideally", ideal).isLessThanOrEqualTo(2 * ideal);
            }
        }
    }
}
