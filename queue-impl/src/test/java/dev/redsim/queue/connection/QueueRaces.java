package dev.redsim.queue.connection;

import dev.redsim.queue.conveyor.ConveyorClient;
import dev.redsim.queue.conveyor.ConveyorKeys;
import dev.redsim.queue.conveyor.ConveyorOptions;
import dev.redsim.queue.conveyor.ConveyorWorker;
import dev.redsim.queue.conveyor.ConveyorWorkerOptions;
import dev.redsim.queue.conveyor.Deadline;
import dev.redsim.queue.conveyor.Job;
import dev.redsim.queue.jq.JqKeys;
import dev.redsim.queue.jq.client.JqPusher;
import dev.redsim.queue.jq.client.JqWorker;
import dev.redsim.queue.jq.master.JqMaster;
import dev.redsim.queue.jq.master.MasterSettings;
import dev.redsim.queue.rescue.RescueClient;
import dev.redsim.queue.rescue.RescueOptions;
import dev.redsim.queue.rescue.RescueWorker;
import dev.redsim.queue.rescue.RescueWorkerOptions;
import dev.redsim.queue.rescue.Task;
import dev.redsim.queue.thoonk.JobFeed;
import dev.redsim.queue.thoonk.JobWorker;
import dev.redsim.queue.thoonk.JobWorkerOptions;
import dev.redsim.queue.thoonk.ThoonkKeys;
import org.msgpack.value.ValueFactory;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.util.JedisClusterCRC16;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Racing workers while their queue's slot is disrupted (issue 19), one run per contract: producers add {@link #JOBS}
 * jobs and three runtimes (two threads each, each runtime with its own cluster client and slot map; for JQ, three
 * long-polling HTTP workers spread over two masters that share the namespace, each master with its own cluster
 * client) claim and finish them on a fresh queue under a new hash tag. After a fifth of the jobs ran, the slot is
 * disrupted ({@link RaceDisruption}: a migration or a failover) while the work goes on; the producers hold back the
 * second half of their jobs until the disruption lets them go on. Then the contract's invariants: every job ran
 * exactly once (leases and claim timeouts outlive the run by far, so no redelivery is allowed), none is left queued
 * or leased, and the queue's keys are where the disruption put them. A run's cluster and clients are closed by
 * {@link #close}.
 */
final class QueueRaces implements AutoCloseable {
    static final int JOBS = 240;
    private static final int RUNTIMES = 3;
    private static final Duration BOUND = Duration.ofSeconds(60);

    /** Runtimes and clients, closed when the run is over (the checks read the servers after). */
    private final List<AutoCloseable> opened = new ArrayList<>();
    private final RaceCluster cluster;
    private final String clusterName;

    QueueRaces(RaceCluster cluster, String clusterName) {
        this.cluster = cluster;
        this.clusterName = clusterName;
    }

    RaceCluster cluster() {
        return cluster;
    }

    @Override
    public void close() throws Exception {
        stopTheRun();
        cluster.close();
    }

    private void stopTheRun() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        opened.clear();
    }

    private <T extends AutoCloseable> T open(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    private JedisCluster client() {
        return open(new JedisCluster(new HashSet<>(cluster.nodes()), DefaultJedisClientConfig.builder()
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED).socketTimeoutMillis(5000).build()));
    }

    /** The producers and the gate that holds back the second half of their jobs. */
    private static final class Production {
        final CountDownLatch secondHalf = new CountDownLatch(1);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final List<Thread> threads = new ArrayList<>();

        void join() throws InterruptedException {
            secondHalf.countDown();
            for (Thread p : threads) {
                p.join(BOUND.toMillis());
            }
        }
    }

    /** Two producer threads adding JOBS payloads of {@code run}, {@code size} a call (the last batch may be smaller). */
    private static Production produce(String run, int size, Consumer<List<String>> add) {
        Production production = new Production();
        for (int p = 0; p < 2; p++) {
            int first = p;
            Thread producer = new Thread(() -> {
                try {
                    List<String> batch = new ArrayList<>();
                    for (int i = first; i < JOBS; i += 2) {
                        if (i == first + JOBS / 2 && !production.secondHalf.await(BOUND.toMillis(),
                                TimeUnit.MILLISECONDS)) {
                            throw new IllegalStateException("the disruption never let the producers go on");
                        }
                        batch.add(run + "-" + i);
                        if (batch.size() == size || i + 2 >= JOBS || i + 2 == first + JOBS / 2) {
                            add.accept(List.copyOf(batch));
                            batch.clear();
                        }
                    }
                } catch (Throwable e) {
                    production.failure.compareAndSet(null, e);
                }
            }, "race-producer-" + p);
            production.threads.add(producer);
            producer.start();
        }
        return production;
    }

    /**
     * The middle of every run: once a fifth ran, the disruption; then every producer done and every job ran. Returns
     * how many of the disruption's steps met a refusal.
     */
    private static int disruptMidway(RaceDisruption disruption, Arrivals ran, Production production)
            throws InterruptedException {
        long t0 = System.nanoTime();
        assertThat(ran.awaitCount(JOBS / 5, BOUND)).as("a fifth ran before the disruption").isTrue();
        long t1 = System.nanoTime();
        int refusedSteps = disruption.run(production.secondHalf::countDown);
        long t2 = System.nanoTime();
        production.join();
        assertThat(production.failure.get()).as("every add went through").isNull();
        assertThat(ran.awaitCount(JOBS, BOUND)).as("every job ran").isTrue();
        // figures for the report (no assert: times vary with the machine)
        System.out.printf("a fifth ran in %d ms, the disruption took %d ms, the rest ran in %d ms%n",
                (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, (System.nanoTime() - t2) / 1_000_000);
        return refusedSteps;
    }

    private static void assertEachRanOnce(String run, Map<String, AtomicInteger> runs) {
        assertThat(runs).as("jobs that ran").hasSize(JOBS);
        for (int i = 0; i < JOBS; i++) {
            assertThat(runs.get(run + "-" + i)).as("runs of job " + i).isNotNull().hasValue(1);
        }
    }

    private void report(String contract, RaceDisruption disruption, int refusedSteps) {
        assertThat(refusedSteps).as("%s steps that met a refused transition", disruption.name()).isPositive();
        System.out.printf("%s during a %s, %s cluster: %d jobs, %d of its steps met a refusal%n", contract,
                disruption.name(), clusterName, JOBS, refusedSteps);
    }

    private static Jedis on(String address) {
        HostAndPort node = HostAndPort.from(address);
        return new Jedis(node.getHost(), node.getPort());
    }

    void conveyor(IntFunction<RaceDisruption> disrupting) throws Exception {
        String tag = cluster.freshName(name -> "{" + name + "}");
        RaceDisruption disruption = disrupting.apply(JedisClusterCRC16.getSlot("{" + tag + "}"));
        ConveyorKeys keys = new ConveyorKeys("{" + tag + "}:").withShardedWake();
        Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
        Arrivals ran = new Arrivals();
        ConveyorWorkerOptions options = ConveyorWorkerOptions.defaults().withKeys(keys).withConcurrency(2)
                .withIdleCheck(Duration.ofMillis(200));
        for (int w = 0; w < RUNTIMES; w++) {
            open(ConveyorWorker.start(client(), "mail", options, r -> {
                String payload = new String(r.job().payload());
                runs.computeIfAbsent(payload, p -> new AtomicInteger()).incrementAndGet();
                ran.add(payload);
            }));
        }
        // a dead letter from earlier (bytes that were no job): with every key the claim script declares present on a
        // migrating master, claims run there instead of being refused up front, and meet the job keys moved away
        JedisCluster seeding = client();
        seeding.lpush(keys.deadLetters(), "not a job".getBytes());
        ConveyorClient producer = new ConveyorClient(seeding, ConveyorOptions.defaults(), keys, null);
        String run = UUID.randomUUID().toString();
        Production production = produce(run, 1,
                batch -> producer.add(Deadline.none(), Job.of("mail", batch.get(0).getBytes()), false));

        int refusedSteps = disruptMidway(disruption, ran, production);
        stopTheRun();

        assertEachRanOnce(run, runs);
        disruption.checkKeysPlaced(tag);
        try (Jedis owner = on(disruption.servingMaster())) {
            assertThat(owner.scard(keys.done())).as("done").isEqualTo(JOBS);
            assertThat(owner.zcard(keys.leases())).as("leases left").isZero();
            assertThat(owner.llen(keys.queue("mail"))).as("queued").isZero();
            assertThat(owner.llen(keys.deadLetters())).as("dead letters: the one from earlier").isEqualTo(1);
        }
        assertThat(NodeReads.keysOn(disruption.servingMaster(), tag)).as("lease keys left")
                .noneMatch(k -> k.endsWith(":lease"));
        report("conveyor", disruption, refusedSteps);
    }

    void thoonk(IntFunction<RaceDisruption> disrupting) throws Exception {
        String tag = cluster.freshName(name -> "{" + name + "}");
        RaceDisruption disruption = disrupting.apply(JedisClusterCRC16.getSlot("{" + tag + "}"));
        String feed = "{" + tag + "}jobs";
        Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
        Arrivals ran = new Arrivals();
        JobWorkerOptions options = JobWorkerOptions.defaults().withConcurrency(2)
                .withPollWait(Duration.ofMillis(100));
        for (int w = 0; w < RUNTIMES; w++) {
            open(JobWorker.start(client(), feed, options, r -> {
                runs.computeIfAbsent(r.item(), p -> new AtomicInteger()).incrementAndGet();
                ran.add(r.item());
                return "ok";
            }));
        }
        JobFeed producer = new JobFeed(client(), feed, null);
        String run = UUID.randomUUID().toString();
        Production production = produce(run, 1, batch -> producer.put(batch.get(0)));

        int refusedSteps = disruptMidway(disruption, ran, production);
        ThoonkKeys keys = new ThoonkKeys(feed);
        try (Jedis owner = on(disruption.servingMaster())) {
            assertThat(ServerPoll.until(() -> Set.of(Integer.toString(JOBS)).contains(owner.get(keys.finishes())),
                    BOUND)).as("every job finished").isTrue();
        }
        stopTheRun();

        assertEachRanOnce(run, runs);
        disruption.checkKeysPlaced(tag);
        try (Jedis owner = on(disruption.servingMaster())) {
            assertThat(owner.llen(keys.ids())).as("ids queued").isZero();
            assertThat(owner.zcard(keys.claimed())).as("claims left").isZero();
            assertThat(owner.hlen(keys.items())).as("items left").isZero();
        }
        report("thoonk", disruption, refusedSteps);
    }

    void jq(IntFunction<RaceDisruption> disrupting) throws Exception {
        String tag = cluster.freshName(name -> "{" + name + "}");
        RaceDisruption disruption = disrupting.apply(JedisClusterCRC16.getSlot("{" + tag + "}"));
        JqKeys keys = new JqKeys("{" + tag + "}:");
        // two masters sharing the namespace, each with its own cluster client; workers and pushers spread over them
        List<JqMaster> masters = new ArrayList<>();
        for (int m = 0; m < 2; m++) {
            masters.add(open(JqMaster.start(client(), "127.0.0.1", 0, MasterSettings.defaults().withKeys(keys))));
        }
        Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
        Arrivals ran = new Arrivals();
        for (int w = 0; w < RUNTIMES; w++) {
            open(new JqWorker(masters.get(w % 2).uri(), "w" + w, (name, argument) -> {
                String payload = argument.asStringValue().asString();
                runs.computeIfAbsent(payload, p -> new AtomicInteger()).incrementAndGet();
                ran.add(payload);
                return ValueFactory.newString("ok");
            }).start(2));
        }
        List<JqPusher> pushers = List.of(open(new JqPusher(masters.get(0).uri())),
                open(new JqPusher(masters.get(1).uri())));
        String run = UUID.randomUUID().toString();
        AtomicInteger turn = new AtomicInteger();
        // batches of 4: a batch written halfway and sent again would run its first jobs twice
        Production production = produce(run, 4, batch -> pushers.get(turn.getAndIncrement() % 2)
                .enqueueMany(batch.stream().map(p -> JqPusher.job("race", ValueFactory.newString(p))).toList()));

        int refusedSteps = disruptMidway(disruption, ran, production);
        try (Jedis owner = on(disruption.servingMaster())) {
            assertThat(ServerPoll.until(() -> owner.zcard(keys.succeeded()) == JOBS, BOUND))
                    .as("every outcome recorded").isTrue();
        }
        stopTheRun();

        assertEachRanOnce(run, runs);
        disruption.checkKeysPlaced(tag);
        try (Jedis owner = on(disruption.servingMaster())) {
            assertThat(owner.zcard(keys.ready())).as("ready").isZero();
            assertThat(owner.zcard(keys.running())).as("running").isZero();
            assertThat(owner.zcard(keys.delayed())).as("delayed").isZero();
            // the contract allows a gap after a crash between INCR and the job's write; a disruption is no crash, and
            // an enqueue refused halfway (INCR kept, its job refused) would leave one per refusal
            assertThat(owner.get(keys.sequence())).as("ids given, none lost to a refused enqueue")
                    .isEqualTo(Integer.toString(JOBS).getBytes());
        }
        report("jq", disruption, refusedSteps);
    }

    /**
     * rescue: producers create tasks in batches of 4 (createMany, one script), three worker runtimes of two threads
     * search, run and delete them. Besides each task running once: no task, index entry or ownership left, only the
     * id counter.
     */
    void rescue(IntFunction<RaceDisruption> disrupting) throws Exception {
        String queue = cluster.freshName(name -> "{rescue:" + name + "}");
        String tag = "rescue:" + queue;
        RaceDisruption disruption = disrupting.apply(JedisClusterCRC16.getSlot("{" + tag + "}"));
        Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
        List<String> laterAttempts = new java.util.concurrent.CopyOnWriteArrayList<>();
        Arrivals ran = new Arrivals();
        RescueWorkerOptions options = RescueWorkerOptions.defaults().withConcurrency(2)
                .withIdleCheck(Duration.ofMillis(200));
        for (int w = 0; w < RUNTIMES; w++) {
            // sharded wakes, as recommended on a cluster (and as the producer below: every process must agree)
            open(RescueWorker.start(client(), RescueOptions.of(queue, "w" + w).withLease(Duration.ofMinutes(10))
                            .withShardedWake(), options, r -> {
                        String payload = r.task().meta().get("x.api.io/object");
                        runs.computeIfAbsent(payload, p -> new AtomicInteger()).incrementAndGet();
                        if (r.attempt() != 1) {
                            laterAttempts.add(payload + " at attempt " + r.attempt());
                        }
                        ran.add(payload);
                        return null;
                    }));
        }
        RescueClient producer = new RescueClient(client(), RescueOptions.of(queue, "producer").withShardedWake(), null);
        String run = UUID.randomUUID().toString();
        // batches of 4: a batch written halfway and sent again would create its first tasks twice
        Production production = produce(run, 4, batch -> producer.createMany(batch.stream()
                .map(p -> Task.withMeta(Map.of("x.api.io/object", p))).toList()));

        int refusedSteps = disruptMidway(disruption, ran, production);
        String prefix = "{" + tag + "}:";
        try (Jedis owner = on(disruption.servingMaster())) {
            assertThat(ServerPoll.until(() -> owner.scard(prefix + "all") == 0, BOUND))
                    .as("every task deleted").isTrue();
        }
        stopTheRun();

        assertEachRanOnce(run, runs);
        disruption.checkKeysPlaced(tag);
        try (Jedis owner = on(disruption.servingMaster())) {
            assertThat(owner.zcard(prefix + "available")).as("available").isZero();
            assertThat(owner.zcard(prefix + "owned")).as("owned").isZero();
        }
        // a task's cycles count its deliveries (its attempt): a search stopped after it wrote the task's hash and
        // searched again would count one delivery twice
        assertThat(laterAttempts).as("tasks delivered at a later attempt though never delivered before").isEmpty();
        assertThat(NodeReads.keysOn(disruption.servingMaster(), tag)).as("keys left: the id counter only")
                .containsExactly(prefix + "seq");
        try (Jedis owner = on(disruption.servingMaster())) {
            // a create refused after its INCR would leave one id unused per refusal; a disruption is no crash
            assertThat(owner.get(prefix + "seq")).as("ids given, none lost to a refused create")
                    .isEqualTo(Integer.toString(JOBS));
        }
        report("rescue", disruption, refusedSteps);
    }
}
