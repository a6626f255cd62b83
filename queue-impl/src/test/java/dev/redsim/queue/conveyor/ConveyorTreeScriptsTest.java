package dev.redsim.queue.conveyor;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import dev.redsim.queue.script.Transitions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Job trees with scripts (add.lua, finish.lua, settle.lua) on both targets: histories with parents, children,
 * predecessors and successors leave, key for key, what the WATCH/MULTI forms leave; a deep chain of parents settles
 * in bounded calls; and a child's completion is one script call, no transaction, also with the next claim (INFO
 * commandstats).
 */
class ConveyorTreeScriptsTest {
    private static final long START = 1_700_000_000_000L;

    private static Jedis connect(String name) {
        RedisTarget t = name.equals("simulator") ? SharedTargets.simulator() : SharedTargets.reference();
        Jedis jedis = new Jedis(t.host(), t.port());
        jedis.flushAll();
        return jedis;
    }

    private static Conveyor conveyor(Jedis jedis, ManualClock clock, Transitions transitions, String prefix) {
        return new Conveyor(jedis, clock, ConveyorOptions.defaults().withTransitions(transitions),
            new ConveyorKeys(prefix));
    }

    private static Job job(String uuid) {
        return Job.of("q", uuid.getBytes()).withUuid(uuid);
    }

    /** Claims and completes whatever the queue holds, until it is empty; returns the uuids in claim order. */
    private static List<String> drain(Conveyor c) {
        List<String> ran = new ArrayList<>();
        for (Optional<Lease> lease = c.claim(Deadline.none(), "q"); lease.isPresent();
             lease = c.claim(Deadline.none(), "q")) {
            ran.add(lease.get().uuid());
            c.complete(Deadline.none(), lease.get());
        }
        return ran;
    }

    /** Parents, buffered and late children, predecessors, retries, final failures, every form of completion. */
    private static List<Map<String, String>> treeHistory(Jedis jedis, Transitions transitions, String prefix) {
        List<Map<String, String>> snapshots = new ArrayList<>();
        ManualClock clock = new ManualClock(START);
        Conveyor c = conveyor(jedis, clock, transitions, prefix);
        c.addAll(Deadline.none(), List.of(job("p"), job("c1").withParent("p"),
            // due after the parent ends, a sub-millisecond run-at: scheduled when released, score in whole ms
            job("c2").withParent("p").withRunAt(Instant.ofEpochMilli(START + 2000).plusNanos(500_000)),
            job("c3").withParent("p").withRunAt(Instant.ofEpochMilli(START + 3)).withMaxRetries(1),
            job("s").withPredecessor("p"), job("s2").withPredecessor("nobody"), job("g").withParent("c1")));
        Lease p = c.claim(Deadline.none(), "q").orElseThrow();
        clock.advance(7);
        c.complete(Deadline.none(), p); // releases c1 to the queue, c3 (due) too, c2 to scheduled; p waits
        snapshots.add(ConveyorBatchTest.keys(jedis, prefix));
        c.add(Deadline.none(), job("late").withParent("p"), false); // p finished running: placed, in p's active set
        c.add(Deadline.none(), job("dp").withParent("p").withPredecessor("s2"), true); // dead parent: predecessor skipped
        List<Lease> three = c.claimMany(Deadline.none(), "q", 4);
        assertThat(three).extracting(Lease::uuid).containsExactly("c1", "c3", "late", "dp");
        assertThat(c.completeAll(Deadline.none(), List.of(three.get(2), three.get(3)))).isEmpty();
        c.fail(Deadline.none(), three.get(1), "once"); // c3 is retried: scheduled after the backoff
        List<Lease> next = c.completeAndClaim(Deadline.none(), three.get(0), "q", 1); // c1 releases g
        assertThat(next).extracting(Lease::uuid).containsExactly("g");
        c.fail(Deadline.none(), next.get(0), "final"); // no retries: g failed, c1 final, p still has c2 and c3
        snapshots.add(ConveyorBatchTest.keys(jedis, prefix));
        assertThat(jedis.sismember(prefix + "conveyor:done", "p")).isFalse();
        clock.advance(5_000);
        assertThat(c.runScheduler(Deadline.none())).isEqualTo(2);
        assertThat(drain(c)).containsExactly("c3", "c2", "s"); // c3 was due first; the last child settles p: s
        c.add(Deadline.none(), job("after").withPredecessor("p"), false); // p is final: placed at once
        assertThat(drain(c)).containsExactly("after");
        snapshots.add(ConveyorBatchTest.keys(jedis, prefix));
        return snapshots;
    }

    @ParameterizedTest
    @ValueSource(strings = {"simulator", "reference"})
    void treeScriptsLeaveTheSameKeysAsTheWatchMultiForms(String name) {
        try (Jedis jedis = connect(name)) {
            List<Map<String, String>> scripted = treeHistory(jedis, Transitions.SCRIPTS, "s:");
            List<Map<String, String>> optimistic = treeHistory(jedis, Transitions.OPTIMISTIC, "o:");
            assertThat(scripted).isEqualTo(optimistic);
            assertThat(scripted.get(0)).as("after p ran").containsKeys("scheduled", "conveyor:waiting", "jobs:p:active",
                "jobs:p:onComplete", "jobs:c1:children");
            assertThat(scripted.get(1)).as("after g failed").containsKeys("conveyor:failed", "jobs:p:active", "scheduled");
            assertThat(scripted.get(2)).as("at the end").containsKeys("conveyor:done", "conveyor:failed", "jobs:nobody:onComplete", "jobs:p");
            assertThat(scripted.get(2)).doesNotContainKeys("conveyor:settling", "conveyor:waiting", "jobs:p:active");
        }
    }

    /**
     * p0 <- p1 <- ... <- p(depth): each parent waits for its only child, and each has a successor s(i); the leaf's
     * completion settles every parent above it, which releases every successor.
     */
    private static Conveyor buildChain(Jedis jedis, Transitions transitions, String prefix, int depth) {
        Conveyor c = conveyor(jedis, new ManualClock(START), transitions, prefix);
        c.add(Deadline.none(), job("p0"), false);
        for (int i = 1; i <= depth; i++) {
            Lease running = c.claim(Deadline.none(), "q").orElseThrow();
            c.addAll(Deadline.none(), List.of(job("p" + i).withParent("p" + (i - 1)), job("s" + i).withPredecessor("p" + i)));
            c.complete(Deadline.none(), running);
        }
        assertThat(jedis.scard(prefix + "conveyor:waiting")).isEqualTo(depth);
        return c;
    }

    @ParameterizedTest
    @ValueSource(strings = {"simulator", "reference"})
    void aDeepChainOfParentsSettlesInBoundedCallsAndLeavesTheSameKeys(String name) {
        int depth = 2 * Worker.SETTLE_PER_CALL + 5;
        try (RedisTarget target = fresh(name); Jedis jedis = new Jedis(target.host(), target.port())) {
            Conveyor o = buildChain(jedis, Transitions.OPTIMISTIC, "o:", depth);
            o.complete(Deadline.none(), o.claim(Deadline.none(), "q").orElseThrow());
            Map<String, String> optimistic = ConveyorBatchTest.keys(jedis, "o:");
            Conveyor c = buildChain(jedis, Transitions.SCRIPTS, "s:", depth);
            Lease leaf = c.claim(Deadline.none(), "q").orElseThrow();
            jedis.scriptLoad(ConveyorScripts.SETTLE.source()); // so that its first call below is an EVALSHA, not EVAL
            jedis.configResetStat();
            c.complete(Deadline.none(), leaf);
            Map<String, Long> calls = calls(jedis);
            // finish.lua settles SETTLE_PER_CALL parents, each settle.lua call as many more: depth parents in 3 calls
            assertThat(calls.getOrDefault("evalsha", 0L)).isEqualTo(3);
            assertThat(calls).doesNotContainKeys("multi", "exec", "watch");
            assertThat(ConveyorBatchTest.keys(jedis, "s:")).isEqualTo(optimistic);
            assertThat(jedis.scard("s:conveyor:done")).as("the parents and the leaf").isEqualTo(depth + 1);
            assertThat(jedis.llen("s:q")).as("every parent's successor, released as it became final").isEqualTo(depth);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"simulator", "reference"})
    void aChildsCompletionIsOneScriptCallAndNoTransactionWithTheNextClaimToo(String name) {
        try (RedisTarget target = fresh(name); Jedis jedis = new Jedis(target.host(), target.port())) {
            Conveyor c = new Conveyor(jedis, new ManualClock(START));
            c.add(Deadline.none(), job("p"), false);
            Lease parent = c.claim(Deadline.none(), "q").orElseThrow();
            c.addAll(Deadline.none(), List.of(job("a").withParent("p"), job("b").withParent("p"), job("n").withPredecessor("p")));
            c.complete(Deadline.none(), parent);
            List<Lease> children = c.claimMany(Deadline.none(), "q", 2);
            jedis.scriptLoad(ConveyorScripts.FINISH_AND_CLAIM.source()); // so that its first call is an EVALSHA
            jedis.configResetStat();
            c.complete(Deadline.none(), children.get(0)); // a sibling is still active
            assertThat(calls(jedis).get("evalsha")).isEqualTo(1);
            assertThat(calls(jedis)).doesNotContainKeys("multi", "exec", "watch", "eval");
            jedis.configResetStat();
            // the last child: settles p, which releases n, and the same call claims n
            assertThat(c.completeAndClaim(Deadline.none(), children.get(1), "q", 1)).extracting(Lease::uuid)
                .containsExactly("n");
            assertThat(calls(jedis).get("evalsha")).isEqualTo(1);
            assertThat(calls(jedis)).doesNotContainKeys("multi", "exec", "watch", "eval");
            assertThat(jedis.smembers("conveyor:done")).containsExactlyInAnyOrder("p", "a", "b");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"simulator", "reference"})
    void aChildOfAParentWhoseRecordIsNoJobIsRefusedAndNothingWritten(String name) {
        try (Jedis jedis = connect(name)) {
            for (Transitions transitions : Transitions.values()) {
                String prefix = transitions.name() + ":";
                jedis.set((prefix + "jobs:p").getBytes(), new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff});
                Conveyor c = conveyor(jedis, new ManualClock(START), transitions, prefix);
                assertThatThrownBy(() -> c.add(Deadline.none(), job("child").withParent("p"), false))
                    .as(transitions.name()).isInstanceOf(ConveyorException.class);
                assertThat(jedis.keys(prefix + "*")).as(transitions.name()).containsExactly(prefix + "jobs:p");
            }
        }
    }

    private static RedisTarget fresh(String name) {
        return name.equals("simulator") ? new SimulatorTarget() : Targets.reference();
    }

    /** INFO commandstats: calls per command since the last CONFIG RESETSTAT (config and info themselves left out). */
    private static Map<String, Long> calls(Jedis jedis) {
        Map<String, Long> calls = new TreeMap<>();
        Matcher m = Pattern.compile("cmdstat_([a-z|]+):calls=(\\d+)").matcher(jedis.info("commandstats"));
        while (m.find()) {
            if (!m.group(1).startsWith("config") && !m.group(1).startsWith("info")) {
                calls.put(m.group(1), Long.parseLong(m.group(2)));
            }
        }
        return calls;
    }
}
