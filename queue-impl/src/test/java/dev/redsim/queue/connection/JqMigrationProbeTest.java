package dev.redsim.queue.connection;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.queue.jq.AttemptReport;
import dev.redsim.queue.jq.Constraint;
import dev.redsim.queue.jq.JobMatcher;
import dev.redsim.queue.jq.JobQueue;
import dev.redsim.queue.jq.JobRequest;
import dev.redsim.queue.jq.JqKeys;
import dev.redsim.queue.jq.JqOptions;
import dev.redsim.queue.jq.Msgpack;
import dev.redsim.queue.jq.Outcome;
import dev.redsim.queue.jq.Assignment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.msgpack.value.ValueFactory;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.util.JedisClusterCRC16;
import redis.clients.jedis.params.MigrateParams;

import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * JQ's scripts probe the keys they build from the prefix before their first write (decision 0023): deterministically,
 * on a simulated and on the real 3-master cluster. A queue with every key its scripts declare present (ready, delayed,
 * running, succeeded, failed, failures, results, constraints), so the cluster lets the scripts run on the migrating
 * source; then only its per-name counters (stats:n, stats:m) are moved to the target. Each transition, run on the
 * source, writes its sets and the job's hash first and the counters last: without the probes a claim would pop the job
 * and stop at the counter (the job running, its counters wrong), a report would finish it half. With them, claim,
 * report, cancel and release are each refused (a refusal RedisConnections waits on) and every key on the source is
 * byte for byte as before. So are the promotion of a due retry outside a claim and the constraint edits, which refuse
 * themselves first while the slot migrates (EXISTS of a key nothing writes, decision 0044): a constraint's definition
 * (one HSET of the present constraints hash) is the case only that probe refuses (it fails without it); promote
 * would also stop at job 3's moved counter, and a removal's declared rate log and running set do not exist, so the
 * cluster refuses it up front; then a claim through RedisConnections, started during the migration, is refused until the
 * migration ends and then claims the job on the new master. (A key not created yet is refused on a migrating source
 * too: report's probe of the kept result it may write refuses it even without the counters' probe; only without both
 * does a report write half, which is how the report case was checked.)
 */
class JqMigrationProbeTest {
    private static final long START = 1_700_000_000_000L;
    private RaceCluster cluster;
    private JedisCluster client;

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void transitionsMeetingAMovedCounterWriteNothingAndWaitForTheMigration(String which) throws Exception {
        cluster = RaceCluster.start(which, 0);
        String tag = cluster.freshName(name -> "{" + name + "}");
        JqKeys keys = new JqKeys("{" + tag + "}:");
        int slot = JedisClusterCRC16.getSlot(keys.slotKey());
        HostAndPort source = cluster.ownerOf(slot);
        ManualClock clock = new ManualClock(START);
        JqOptions options = JqOptions.defaults();
        try (Jedis jedis = new Jedis(source.getHost(), source.getPort())) {
            JobQueue queue = new JobQueue(jedis, keys, clock, options);
            queue.putConstraint(new Constraint("other", JobMatcher.byName("other"), 0, 0, 1));
            queue.enqueueMany(List.of(job("n", 0, true), job("n", 0, false), job("n", 1, false), job("n", 0, false),
                    job("m", 0, false)));
            List<Assignment> four = queue.claimMany("w", 4);
            assertThat(four).extracting(Assignment::id).containsExactly(1L, 2L, 3L, 4L);
            byte[] success = Msgpack.encode(Msgpack.map("type", "success", "result", 1));
            queue.reportMany(List.of(new AttemptReport(1, 1, new Outcome.Success(success)),
                    new AttemptReport(2, 1, failure()), new AttemptReport(3, 1, failure())));
            // now: ready {5 (m)}, running {4}, delayed {3}, succeeded {1}, failed {2}, failures, results {1}
        }
        SlotMove move = cluster.startMoving(slot);
        try (Jedis jedis = new Jedis(source.getHost(), source.getPort())) {
            String moved = jedis.migrate(HostAndPort.from(move.target()).getHost(),
                    HostAndPort.from(move.target()).getPort(), 0, 5_000, new MigrateParams(),
                    keys.prefix() + "stats:n", keys.prefix() + "stats:m");
            assertThat(moved).isEqualTo("OK");
            Map<String, String> before = snapshot(jedis, slot);
            assertThat(before).as("every declared key is on the source, the counters are not")
                    .containsKeys(keys.prefix() + "ready", keys.prefix() + "running", keys.prefix() + "delayed",
                            keys.prefix() + "succeeded", keys.prefix() + "failed", keys.prefix() + "failures",
                            keys.prefix() + "results", keys.prefix() + "constraints")
                    .doesNotContainKeys(keys.prefix() + "stats:n", keys.prefix() + "stats:m");
            JobQueue queue = new JobQueue(jedis, keys, clock, options);
            // an hour on, job 3's retry is due: promote meets it (its counters moved)
            JobQueue later = new JobQueue(jedis, keys, new ManualClock(START + 3_600_000), options);
            Map<String, Consumer<JobQueue>> transitions = new TreeMap<>(Map.of(
                    "claim", q -> q.claimMany("w", 1),
                    "report", q -> q.reportMany(List.of(new AttemptReport(4, 1, new Outcome.Success(success())))),
                    "cancel", q -> q.cancel(4),
                    "release", q -> q.release(4, 1),
                    "promote", q -> later.promoteDue(),
                    "put-constraint", q -> q.putConstraint(new Constraint("other", JobMatcher.byName("other"), 0, 0, 2)),
                    "remove-constraint", q -> q.removeConstraint("other")));
            for (Map.Entry<String, Consumer<JobQueue>> t : transitions.entrySet()) {
                Throwable refused = catchThrowable(() -> t.getValue().accept(queue));
                assertThat(refused).as(t.getKey() + " refused").isNotNull();
                assertThat(SlotMoves.classify(refused)).as(t.getKey() + ": " + refused.getMessage())
                        .isNotEqualTo(SlotMoves.Refusal.NONE);
                assertThat(snapshot(jedis, slot)).as("what " + t.getKey() + " left on the source").isEqualTo(before);
            }
        }
        // The same claim through RedisConnections: refused while the slot migrates, run again until it has moved.
        client = new JedisCluster(new HashSet<>(cluster.nodes()), DefaultJedisClientConfig.builder()
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED).socketTimeoutMillis(5000).build());
        RedisConnections connections = RedisConnections.of(client);
        long errorsBefore = NodeReads.errorReplies(move.source());
        CompletableFuture<List<Assignment>> claim = CompletableFuture.supplyAsync(() -> connections.transition(
                keys.slotKey(), jedis -> new JobQueue(jedis, keys, clock, options).claimMany("w2", 1)));
        long bound = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (NodeReads.errorReplies(move.source()) == errorsBefore && !claim.isDone()
                && System.nanoTime() < bound) {
            Thread.onSpinWait();
        }
        assertThat(NodeReads.errorReplies(move.source())).as("the claim was refused on the source")
                .isGreaterThan(errorsBefore);
        assertThat(claim).as("the claim waits for the migration").isNotDone();
        move.finish();
        List<Assignment> claimed = claim.get(20, TimeUnit.SECONDS);
        assertThat(claimed).extracting(Assignment::id).containsExactly(5L);
        HostAndPort target = HostAndPort.from(move.target());
        try (Jedis jedis = new Jedis(target.getHost(), target.getPort())) {
            assertThat(jedis.hgetAll(keys.prefix() + "stats:m")).containsEntry("queued", "0")
                    .containsEntry("running", "1");
            assertThat(jedis.hgetAll(keys.prefix() + "stats:n")).containsEntry("running", "1")
                    .containsEntry("succeeded", "1").containsEntry("failed", "1").containsEntry("delayed", "1");
        }
    }

    private static JobRequest job(String name, int maxRetry, boolean keepResult) {
        return new JobRequest(name, Msgpack.encode(ValueFactory.newNil()), 0, maxRetry, keepResult, 600_000);
    }

    private static byte[] success() {
        return Msgpack.encode(Msgpack.map("type", "success", "result", 2));
    }

    private static Outcome failure() {
        return new Outcome.Failure(Msgpack.encode(Msgpack.map("type", "failure", "reason", "other")), "other", true,
                "boom");
    }

    /** Every key of the slot on this node and its DUMP (type, value and encoding), hex. */
    private static Map<String, String> snapshot(Jedis jedis, int slot) {
        Map<String, String> keys = new TreeMap<>();
        for (String key : jedis.clusterGetKeysInSlot(slot, 1000)) {
            keys.put(key, HexFormat.of().formatHex(jedis.dump(key)));
        }
        return keys;
    }
}
