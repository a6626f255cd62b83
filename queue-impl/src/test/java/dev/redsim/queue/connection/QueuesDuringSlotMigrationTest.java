package dev.redsim.queue.connection;

import dev.redsim.conformance.target.ClusterSlotTarget;
import dev.redsim.conformance.target.SharedClusters;
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
import dev.redsim.queue.thoonk.JobFeed;
import dev.redsim.queue.thoonk.JobWorker;
import dev.redsim.queue.thoonk.JobWorkerOptions;
import dev.redsim.queue.thoonk.ThoonkKeys;
import dev.redsim.simulator.RedisCluster;
import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.SlotMigration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.msgpack.value.ValueFactory;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.util.JedisClusterCRC16;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Racing workers while their queue's slot migrates (issue 19): producers add jobs and three runtimes (two threads
 * each, each runtime with its own cluster client and slot map; for JQ, three long-polling HTTP workers spread over two
 * masters that share the namespace, each master with its own cluster client) claim and finish them on a queue whose hash slot moves
 * to another master mid-run, key batch by key batch, on a simulated cluster (RedisCluster.startSlotMigration) and a
 * real 3-master cluster (CommandSlotMove: the commands redis-cli --cluster reshard sends). Between batches the test
 * waits until the two masters have refused some transition (ASK / TRYAGAIN / a script's probe), so the migration
 * and the work do interleave; the run then checks the contract's invariants: every job ran exactly once (leases and
 * claims outlive the run by far, so no redelivery is allowed), none is left queued or leased, and every key of the
 * queue is on the new master. Without RedisConnections.transition a producer's add fails and the workers' refused
 * completions wait for lease recovery; without the probes in Conveyor's claim script a claim on the migrating master
 * (which runs there once every key it declares is present: a dead letter from earlier makes that so) pops a job and
 * then fails on its lease key, and the job is lost; without the probes in JQ's enqueue script an enqueue on the
 * migrating master takes an id (INCR) and is refused at the job's hash, and the id is lost.
 *
 * <p>Where a failover goes: the disruption of a run is a {@link SlotMove} (opened, stepped, finished while the work
 * runs); a failover of the queue's master during the run (CLUSTER FAILOVER on its replica) is another disruption of
 * the same shape, to add when the clusters have replicas.
 */
class QueuesDuringSlotMigrationTest {
    private static final int JOBS = 240;
    private static final int RUNTIMES = 3;
    private static final int STEP_KEYS = 4;
    private static final Duration BOUND = Duration.ofSeconds(60);

    /** Runtimes and clients, closed when the run is over (the checks read the servers after); then the cluster. */
    private final List<AutoCloseable> opened = new ArrayList<>();
    private RedisCluster simulated;

    @AfterEach
    void closeAll() throws Exception {
        stopTheRun();
        if (simulated != null) {
            simulated.close();
        }
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

    /** A cluster with a slot to move: its masters, and the move, opened on demand. */
    private interface Cluster {
        List<HostAndPort> masters();

        SlotMove startMoving(int slot);
    }

    private Cluster cluster(String which) {
        if (which.equals("simulated")) {
            simulated = RedisSimulator.cluster().masters(3).start();
            return new Cluster() {
                @Override
                public List<HostAndPort> masters() {
                    return simulated.addresses().stream().map(HostAndPort::from).toList();
                }

                @Override
                public SlotMove startMoving(int slot) {
                    int from = simulated.ownerOf(slot);
                    int to = (from + 1) % simulated.nodes().size();
                    SlotMigration migration = simulated.startSlotMigration(slot, to);
                    String source = simulated.addresses().get(from);
                    String target = simulated.addresses().get(to);
                    return new SlotMove() {
                        @Override
                        public int migrateKeys(int count) {
                            return migration.migrateKeys(count);
                        }

                        @Override
                        public void finish() {
                            migration.finish();
                        }

                        @Override
                        public String source() {
                            return source;
                        }

                        @Override
                        public String target() {
                            return target;
                        }
                    };
                }
            };
        }
        // the shared real cluster: the test's tag is its own (a new uuid), so moving its slot disturbs no other test
        ClusterSlotTarget any = SharedClusters.reference("race");
        List<HostAndPort> masters = any.nodes().stream().map(HostAndPort::from).toList();
        return new Cluster() {
            @Override
            public List<HostAndPort> masters() {
                return masters;
            }

            @Override
            public SlotMove startMoving(int slot) {
                HostAndPort source = ownerOf(masters.get(0), slot);
                HostAndPort target = masters.get((masters.indexOf(source) + 1) % masters.size());
                return new CommandSlotMove(slot, source, target, masters);
            }
        };
    }

    private static HostAndPort ownerOf(HostAndPort node, int slot) {
        try (Jedis jedis = new Jedis(node.getHost(), node.getPort())) {
            for (Object range : jedis.clusterSlots()) {
                List<?> parts = (List<?>) range;
                if ((Long) parts.get(0) <= slot && slot <= (Long) parts.get(1)) {
                    List<?> master = (List<?>) parts.get(2);
                    return new HostAndPort(new String((byte[]) master.get(0)), ((Long) master.get(1)).intValue());
                }
            }
        }
        throw new IllegalStateException("no master serves slot " + slot);
    }

    private JedisCluster client(Cluster cluster) {
        return open(new JedisCluster(new HashSet<>(cluster.masters()), DefaultJedisClientConfig.builder()
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED).socketTimeoutMillis(5000).build()));
    }

    /** Error replies a master has sent so far (INFO stats). */
    private static long errorReplies(String address) {
        HostAndPort node = HostAndPort.from(address);
        try (Jedis jedis = new Jedis(node.getHost(), node.getPort())) {
            for (String line : jedis.info("stats").split("\r\n")) {
                if (line.startsWith("total_error_replies:")) {
                    return Long.parseLong(line.substring(line.indexOf(':') + 1));
                }
            }
        }
        throw new IllegalStateException("no total_error_replies in INFO stats of " + address);
    }

    private static long refusals(SlotMove move) {
        return errorReplies(move.source()) + errorReplies(move.target());
    }

    /**
     * Runs the migration of {@code slot} in the middle of the work: after a fifth of the jobs ran it opens, then
     * moves {@link #STEP_KEYS} keys at a time, each step after the masters refused some transition since the one
     * before (bounded), and finishes. Returns the move and how many steps saw a refusal.
     */
    private static int migrateDuringTheRun(SlotMove move, Arrivals ran) throws InterruptedException {
        int stepsAfterARefusal = 0;
        for (int step = 0; step < 12; step++) {
            long before = refusals(move);
            boolean refused = ServerPoll.until(() -> refusals(move) > before, Duration.ofSeconds(5));
            if (refused) {
                stepsAfterARefusal++;
            }
            if (move.migrateKeys(STEP_KEYS) == 0) {
                break;
            }
        }
        move.finish();
        return stepsAfterARefusal;
    }

    /** Producers: two threads adding JOBS payloads through {@code add}, each failure kept for the test to report. */
    private static List<Thread> produce(String run, Consumer<String> add, AtomicReference<Throwable> failure) {
        return produceBatches(run, 1, batch -> add.accept(batch.get(0)), failure);
    }

    /** Producers adding {@code size} payloads a call (the last batch of each may be smaller). */
    private static List<Thread> produceBatches(String run, int size, Consumer<List<String>> add,
                                               AtomicReference<Throwable> failure) {
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            int first = p;
            Thread producer = new Thread(() -> {
                try {
                    List<String> batch = new ArrayList<>();
                    for (int i = first; i < JOBS; i += 2) {
                        batch.add(run + "-" + i);
                        if (batch.size() == size || i + 2 >= JOBS) {
                            add.accept(List.copyOf(batch));
                            batch.clear();
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "race-producer-" + p);
            producers.add(producer);
            producer.start();
        }
        return producers;
    }

    private static void assertEachRanOnce(String run, Map<String, AtomicInteger> runs) {
        assertThat(runs).as("jobs that ran").hasSize(JOBS);
        for (int i = 0; i < JOBS; i++) {
            assertThat(runs.get(run + "-" + i)).as("runs of job " + i).isNotNull().hasValue(1);
        }
    }

    /** Every key of the tag still on {@code address} (SCAN of the tag's keys). */
    private static List<String> keysOn(String address, String tag) {
        HostAndPort node = HostAndPort.from(address);
        List<String> keys = new ArrayList<>();
        try (Jedis jedis = new Jedis(node.getHost(), node.getPort())) {
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> page = jedis.scan(cursor, new ScanParams().match("*{" + tag + "}*").count(100));
                keys.addAll(page.getResult());
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        }
        return keys;
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void conveyorWorkersRacingThroughASlotMigrationRunEveryJobOnce(String which) throws Exception {
        Cluster cluster = cluster(which);
        String tag = "race-" + UUID.randomUUID();
        int slot = JedisClusterCRC16.getSlot("{" + tag + "}");
        ConveyorKeys keys = new ConveyorKeys("{" + tag + "}:").withShardedWake();
        Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
        Arrivals ran = new Arrivals();
        ConveyorWorkerOptions options = ConveyorWorkerOptions.defaults().withKeys(keys).withConcurrency(2)
                .withIdleCheck(Duration.ofMillis(200));
        for (int w = 0; w < RUNTIMES; w++) {
            open(ConveyorWorker.start(client(cluster), "mail", options, r -> {
                String payload = new String(r.job().payload());
                runs.computeIfAbsent(payload, p -> new AtomicInteger()).incrementAndGet();
                ran.add(payload);
            }));
        }
        // a dead letter from earlier (bytes that were no job): with every key the claim script declares present on the
        // migrating master, claims run there instead of being refused up front, and meet the job keys moved away
        JedisCluster seeding = client(cluster);
        seeding.lpush(keys.deadLetters(), "not a job".getBytes());
        ConveyorClient producer = new ConveyorClient(seeding, ConveyorOptions.defaults(), keys, null);
        String run = UUID.randomUUID().toString();
        AtomicReference<Throwable> producing = new AtomicReference<>();
        List<Thread> producers = produce(run,
                payload -> producer.add(Deadline.none(), Job.of("mail", payload.getBytes()), false), producing);

        assertThat(ran.awaitCount(JOBS / 5, BOUND)).as("a fifth ran before the migration").isTrue();
        SlotMove move = cluster.startMoving(slot);
        int refusedSteps = migrateDuringTheRun(move, ran);
        for (Thread p : producers) {
            p.join(BOUND.toMillis());
        }
        assertThat(producing.get()).as("every add went through").isNull();
        assertThat(ran.awaitCount(JOBS, BOUND)).as("every job ran").isTrue();
        stopTheRun();

        assertThat(refusedSteps).as("migration steps that met a refused transition").isPositive();
        assertEachRanOnce(run, runs);
        assertThat(keysOn(move.source(), tag)).as("keys left on the old master").isEmpty();
        HostAndPort target = HostAndPort.from(move.target());
        try (Jedis owner = new Jedis(target.getHost(), target.getPort())) {
            assertThat(owner.scard(keys.done())).as("done").isEqualTo(JOBS);
            assertThat(owner.zcard(keys.leases())).as("leases left").isZero();
            assertThat(owner.llen(keys.queue("mail"))).as("queued").isZero();
            assertThat(owner.llen(keys.deadLetters())).as("dead letters: the one from earlier").isEqualTo(1);
        }
        assertThat(keysOn(move.target(), tag)).as("lease keys left").noneMatch(k -> k.endsWith(":lease"));
        System.out.printf("conveyor during a slot migration, %s cluster: %d jobs, %d of the steps met a refusal%n",
                which, JOBS, refusedSteps);
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void thoonkWorkersRacingThroughASlotMigrationFinishEveryJobOnce(String which) throws Exception {
        Cluster cluster = cluster(which);
        String tag = "race-" + UUID.randomUUID();
        int slot = JedisClusterCRC16.getSlot("{" + tag + "}");
        String feed = "{" + tag + "}jobs";
        Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
        Arrivals ran = new Arrivals();
        JobWorkerOptions options = JobWorkerOptions.defaults().withConcurrency(2)
                .withPollWait(Duration.ofMillis(100));
        for (int w = 0; w < RUNTIMES; w++) {
            open(JobWorker.start(client(cluster), feed, options, r -> {
                runs.computeIfAbsent(r.item(), p -> new AtomicInteger()).incrementAndGet();
                ran.add(r.item());
                return "ok";
            }));
        }
        JobFeed producer = new JobFeed(client(cluster), feed, null);
        String run = UUID.randomUUID().toString();
        AtomicReference<Throwable> producing = new AtomicReference<>();
        List<Thread> producers = produce(run, producer::put, producing);

        assertThat(ran.awaitCount(JOBS / 5, BOUND)).as("a fifth ran before the migration").isTrue();
        SlotMove move = cluster.startMoving(slot);
        int refusedSteps = migrateDuringTheRun(move, ran);
        for (Thread p : producers) {
            p.join(BOUND.toMillis());
        }
        assertThat(producing.get()).as("every put went through").isNull();
        assertThat(ran.awaitCount(JOBS, BOUND)).as("every job ran").isTrue();
        ThoonkKeys keys = new ThoonkKeys(feed);
        HostAndPort target = HostAndPort.from(move.target());
        try (Jedis owner = new Jedis(target.getHost(), target.getPort())) {
            assertThat(ServerPoll.until(() -> Set.of(Integer.toString(JOBS)).contains(owner.get(keys.finishes())),
                    BOUND)).as("every job finished").isTrue();
        }
        stopTheRun();

        assertThat(refusedSteps).as("migration steps that met a refused transition").isPositive();
        assertEachRanOnce(run, runs);
        assertThat(keysOn(move.source(), tag)).as("keys left on the old master").isEmpty();
        try (Jedis owner = new Jedis(target.getHost(), target.getPort())) {
            assertThat(owner.llen(keys.ids())).as("ids queued").isZero();
            assertThat(owner.zcard(keys.claimed())).as("claims left").isZero();
            assertThat(owner.hlen(keys.items())).as("items left").isZero();
        }
        System.out.printf("thoonk during a slot migration, %s cluster: %d jobs, %d of the steps met a refusal%n",
                which, JOBS, refusedSteps);
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void jqWorkersRacingThroughASlotMigrationThroughTwoMastersFinishEveryJobOnce(String which) throws Exception {
        Cluster cluster = cluster(which);
        String tag = "race-" + UUID.randomUUID();
        int slot = JedisClusterCRC16.getSlot("{" + tag + "}");
        JqKeys keys = new JqKeys("{" + tag + "}:");
        // two masters sharing the namespace, each with its own cluster client; workers and pushers spread over them
        List<JqMaster> masters = new ArrayList<>();
        for (int m = 0; m < 2; m++) {
            masters.add(open(JqMaster.start(client(cluster), "127.0.0.1", 0, MasterSettings.defaults().withKeys(keys))));
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
        AtomicReference<Throwable> producing = new AtomicReference<>();
        AtomicInteger turn = new AtomicInteger();
        // batches of 4: a batch written halfway and sent again would run its first jobs twice
        List<Thread> producers = produceBatches(run, 4, batch -> pushers.get(turn.getAndIncrement() % 2)
                .enqueueMany(batch.stream().map(p -> JqPusher.job("race", ValueFactory.newString(p))).toList()),
                producing);

        assertThat(ran.awaitCount(JOBS / 5, BOUND)).as("a fifth ran before the migration").isTrue();
        SlotMove move = cluster.startMoving(slot);
        int refusedSteps = migrateDuringTheRun(move, ran);
        for (Thread p : producers) {
            p.join(BOUND.toMillis());
        }
        assertThat(producing.get()).as("every push went through").isNull();
        assertThat(ran.awaitCount(JOBS, BOUND)).as("every job ran").isTrue();
        HostAndPort target = HostAndPort.from(move.target());
        try (Jedis owner = new Jedis(target.getHost(), target.getPort())) {
            assertThat(ServerPoll.until(() -> owner.zcard(keys.succeeded()) == JOBS, BOUND))
                    .as("every outcome recorded").isTrue();
        }
        stopTheRun();

        assertThat(refusedSteps).as("migration steps that met a refused transition").isPositive();
        assertEachRanOnce(run, runs);
        assertThat(keysOn(move.source(), tag)).as("keys left on the old master").isEmpty();
        try (Jedis owner = new Jedis(target.getHost(), target.getPort())) {
            assertThat(owner.zcard(keys.ready())).as("ready").isZero();
            assertThat(owner.zcard(keys.running())).as("running").isZero();
            assertThat(owner.zcard(keys.delayed())).as("delayed").isZero();
            // the contract allows a gap after a crash between INCR and the job's write; a migration is no crash, and
            // an enqueue refused halfway (INCR kept, its job refused) would leave one per refusal
            assertThat(owner.get(keys.sequence())).as("ids given, none lost to a refused enqueue")
                    .isEqualTo(Integer.toString(JOBS).getBytes());
        }
        System.out.printf("jq during a slot migration, %s cluster: %d jobs, %d of the steps met a refusal%n",
                which, JOBS, refusedSteps);
    }
}
