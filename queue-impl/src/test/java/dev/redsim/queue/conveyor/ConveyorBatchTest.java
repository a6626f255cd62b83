package dev.redsim.queue.conveyor;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import dev.redsim.queue.script.Transitions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The batch and one-call forms (addAll, claimMany, completeAll, completeAndClaim) and the scheduler on both
 * targets: the same
 * sequence run with scripts and with the WATCH/MULTI forms leaves byte-identical keys (the scripts keep the
 * contract's layout and values), FIFO holds across a batch, and a batch add is all or nothing.
 */
class ConveyorBatchTest {
    private static final long START = 1_700_000_000_000L;

    private static Jedis connect(String name) {
        RedisTarget t = name.equals("simulator") ? SharedTargets.simulator() : SharedTargets.reference();
        Jedis jedis = new Jedis(t.host(), t.port());
        jedis.flushAll();
        return jedis;
    }

    /** Every key under the prefix with a readable dump of its value (DUMP's bytes differ by encoding, so not DUMP). */
    static Map<String, String> keys(Jedis jedis, String prefix) {
        Map<String, String> out = new TreeMap<>();
        for (String key : jedis.keys(prefix + "*")) {
            String name = key.substring(prefix.length());
            byte[] k = key.getBytes(StandardCharsets.UTF_8);
            String value = switch (jedis.type(key)) {
                case "string" -> java.util.HexFormat.of().formatHex(jedis.get(k));
                case "list" -> jedis.lrange(k, 0, -1).stream().map(java.util.HexFormat.of()::formatHex).toList().toString();
                case "set" -> new java.util.TreeSet<>(jedis.smembers(key)).toString();
                case "zset" -> jedis.zrangeWithScores(key, 0, -1).toString();
                default -> jedis.type(key);
            };
            out.put(name, value);
        }
        return out;
    }

    private static List<Job> jobs(String tag, int n) {
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            jobs.add(Job.of("q", ("p" + i).getBytes()).withUuid(tag + i));
        }
        return jobs;
    }

    /** The same calls in a given mode, under a prefix of its own; returns the keys they leave. */
    private static Map<String, String> sequence(Jedis jedis, Transitions transitions, String prefix) {
        ManualClock clock = new ManualClock(START);
        Conveyor c = new Conveyor(jedis, clock, ConveyorOptions.defaults().withTransitions(transitions),
            new ConveyorKeys(prefix));
        List<Job> batch = new ArrayList<>(jobs("j", 5));
        batch.add(Job.of("q", "later".getBytes()).withUuid("later").withRunAt(Instant.ofEpochMilli(START + 1500)));
        batch.add(Job.of("q", "child".getBytes()).withUuid("child").withParent("j0"));
        c.addAll(Deadline.none(), batch);
        List<Lease> first = c.claimMany(Deadline.none(), "q", 3);
        assertThat(first).extracting(Lease::uuid).containsExactly("j0", "j1", "j2");
        clock.advance(7);
        assertThat(c.completeAll(Deadline.none(), first.subList(1, 3))).isEmpty();
        List<Lease> next = c.completeAndClaim(Deadline.none(), first.get(0), "q", 2); // j0 has a buffered child
        assertThat(next).extracting(Lease::uuid).containsExactly("j3", "j4");
        c.release(Deadline.none(), next.get(1));
        c.fail(Deadline.none(), next.get(0), "boom");
        assertThat(c.extend(Deadline.none(), c.claim(Deadline.none(), "q").orElseThrow()).uuid()).isEqualTo("j4");
        clock.advance(ConveyorOptions.defaults().lease().toMillis() + 1);
        assertThat(c.recoverExpiredLeases(Deadline.none())).isEqualTo(1);
        jedis.zadd((prefix + "scheduled").getBytes(StandardCharsets.UTF_8), 1, new byte[] {(byte) 0xff});
        assertThat(c.runScheduler(Deadline.none())).as("'later' and the garbage").isEqualTo(2);
        return keys(jedis, prefix);
    }

    @ParameterizedTest
    @ValueSource(strings = {"simulator", "reference"})
    void scriptsLeaveTheSameKeysAsTheWatchMultiForms(String name) {
        try (Jedis jedis = connect(name)) {
            Map<String, String> scripted = sequence(jedis, Transitions.SCRIPTS, "s:");
            Map<String, String> optimistic = sequence(jedis, Transitions.OPTIMISTIC, "o:");
            assertThat(scripted).isEqualTo(optimistic);
            assertThat(scripted).containsKeys("conveyor:done", "conveyor:waiting", "conveyor:dead-letters", "q", "jobs:j4");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"simulator", "reference"})
    void aBatchAddIsAllOrNothing(String name) {
        try (Jedis jedis = connect(name)) {
            Conveyor c = new Conveyor(jedis, new ManualClock(START));
            c.add(Deadline.none(), Job.of("q", null).withUuid("taken"), false);
            List<Job> batch = new ArrayList<>(jobs("n", 3));
            batch.add(Job.of("q", null).withUuid("taken"));
            assertThatThrownBy(() -> c.addAll(Deadline.none(), batch)).isInstanceOf(DuplicateJobException.class);
            assertThat(jedis.llen("q")).as("nothing of the batch written").isEqualTo(1);
            assertThatThrownBy(() -> c.addAll(Deadline.none(), List.of(Job.of("q", null).withUuid("twice"),
                Job.of("q", null).withUuid("twice")))).isInstanceOf(DuplicateJobException.class);
            assertThat(jedis.exists("jobs:twice")).isFalse();
        }
    }
}
