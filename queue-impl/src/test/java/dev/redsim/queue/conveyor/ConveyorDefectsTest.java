package dev.redsim.queue.conveyor;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import dev.redsim.queue.script.Transitions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Undecodable jobs, duplicate Adds and the cost of finishing many children, on both targets. */
class ConveyorDefectsTest {
    private static final long START = 1_700_000_000_000L;
    private static final byte[] GARBAGE = {(byte) 0xff, (byte) 0xff, (byte) 0xff};

    private static Jedis connect(String name) {
        RedisTarget t = name.equals("simulator") ? SharedTargets.simulator() : SharedTargets.reference();
        Jedis jedis = new Jedis(t.host(), t.port());
        jedis.flushAll();
        return jedis;
    }

    @ParameterizedTest
    @ValueSource(strings = {"simulator", "reference"})
    void undecodableJobsGoToTheDeadLettersAndBlockNothing(String name) {
        try (Jedis jedis = connect(name); Jedis other = connect(name)) {
            Conveyor conveyor = new Conveyor(jedis, new ManualClock(START));
            Job good = conveyor.add(Deadline.none(), Job.of("q", "ok".getBytes()), false);
            jedis.rpush("q".getBytes(), GARBAGE); // the tail: what the next claim takes
            Optional<Lease> lease = conveyor.claim(Deadline.none(), "q");
            assertThat(lease).map(Lease::uuid).contains(good.uuid());
            assertThat(jedis.lrange(new ConveyorKeys("").deadLetters(), 0, -1)).containsExactly(GARBAGE);

            jedis.zadd("scheduled".getBytes(), 1, GARBAGE);
            Job later = conveyor.add(Deadline.none(), Job.of("q", null).withUuid("later")
                .withRunAt(java.time.Instant.ofEpochMilli(START + 10)), false);
            conveyor.runScheduler(Deadline.none());
            assertThat(jedis.zscore("scheduled".getBytes(), GARBAGE)).as("the garbage left the scheduled set").isNull();
            assertThat(jedis.zcard("scheduled")).as("the job not yet due stays").isEqualTo(1);
            assertThat(jedis.llen(new ConveyorKeys("").deadLetters())).isEqualTo(2);

            // No WATCH left armed on our connection: a write by another client must not abort our next add.
            other.lpush("q", "x");
            other.rpop("q");
            conveyor.add(Deadline.none(), Job.of("q", "next".getBytes()).withUuid("next"), false);
            assertThat(jedis.exists("jobs:next")).isTrue();
            assertThat(later.uuid()).isEqualTo("later");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"simulator", "reference"})
    void aSecondAddOfTheSameUuidIsRefusedAndWritesNothing(String name) {
        try (Jedis jedis = connect(name)) {
            Conveyor conveyor = new Conveyor(jedis, new ManualClock(START));
            Job job = Job.of("q", "once".getBytes()).withUuid("same");
            conveyor.add(Deadline.none(), job, false);
            assertThatThrownBy(() -> conveyor.add(Deadline.none(), job, false))
                .isInstanceOf(DuplicateJobException.class);
            assertThatThrownBy(() -> conveyor.add(Deadline.none(), Job.of("other", null).withUuid("same"), false))
                .isInstanceOf(DuplicateJobException.class);
            assertThat(jedis.llen("q")).isEqualTo(1);
            assertThat(jedis.exists("other")).isFalse();
            // Still refused once the job ran: the uuid stays taken.
            Lease lease = conveyor.claim(Deadline.none(), "q").orElseThrow();
            conveyor.complete(Deadline.none(), lease);
            assertThatThrownBy(() -> conveyor.add(Deadline.none(), job, false))
                .isInstanceOf(DuplicateJobException.class);
            assertThat(jedis.llen("q")).isZero();
        }
    }

    /**
     * Finishing a child must cost the same whatever the number of its siblings: bytes Redis sends back per
     * completed child, with 10 and with 300 children (Redis's own INFO counter, the same on both targets). Reading
     * the parent's whole active set on every completion made k completions O(k^2).
     */
    @ParameterizedTest
    @ValueSource(strings = {"simulator", "reference"})
    void finishingAChildCostsTheSameWhateverTheNumberOfSiblings(String name) {
        try (Jedis jedis = connect(name); Jedis info = connect(name)) {
            double few = bytesPerChildCompletion(jedis, info, 10);
            double many = bytesPerChildCompletion(jedis, info, 300);
            System.out.printf("conveyor on %s: %.0f bytes per child completion with 10 siblings, %.0f with 300%n",
                name, few, many);
            assertThat(many).as("bytes per completion, 300 siblings vs 10").isLessThan(few * 1.5);
        }
    }

    /**
     * Siblings finishing at the same moment: before every EXEC that one child's completion sends, another sibling
     * completes. The completion must commit at its first EXEC (its keys are not the siblings'); the parent's
     * settling afterwards sees a sibling still active and leaves it to that sibling. Before, each completion watched
     * the parent's active set, and every sibling finishing first made it start over: ten siblings, ten aborts.
     * This is the WATCH/MULTI form's behaviour (OPTIMISTIC): with scripts a completion sends no EXEC at all
     * (ConveyorTreeScriptsTest.aChildsCompletionIsOneScriptCallAndNoTransaction).
     */
    @ParameterizedTest
    @ValueSource(strings = {"simulator", "reference"})
    void siblingsFinishingAtOnceDoNotMakeEachOtherStartOver(String name) {
        RedisTarget t = name.equals("simulator") ? SharedTargets.simulator() : SharedTargets.reference();
        try (Jedis jedis = connect(name)) {
            ManualClock clock = new ManualClock(START);
            ConveyorOptions optimistic = ConveyorOptions.defaults().withTransitions(Transitions.OPTIMISTIC);
            Conveyor others = new Conveyor(jedis, clock, optimistic, ConveyorKeys.standard());
            others.add(Deadline.none(), Job.of("parents", null).withUuid("p"), false);
            Lease parent = others.claim(Deadline.none(), "parents").orElseThrow();
            for (int i = 0; i <= 10; i++) {
                others.add(Deadline.none(), Job.of("kids", null).withUuid("child-" + i).withParent("p"), false);
            }
            others.complete(Deadline.none(), parent);
            Lease mine = others.claim(Deadline.none(), "kids").orElseThrow();
            java.util.Deque<Lease> siblings = new java.util.ArrayDeque<>();
            for (int i = 0; i < 10; i++) {
                siblings.add(others.claim(Deadline.none(), "kids").orElseThrow());
            }
            java.util.concurrent.atomic.AtomicInteger execs = new java.util.concurrent.atomic.AtomicInteger();
            dev.redsim.queue.thoonk.ListenedConnection listened = new dev.redsim.queue.thoonk.ListenedConnection(
                new redis.clients.jedis.HostAndPort(t.host(), t.port()), (sent, command) -> {
                    if (command.equalsIgnoreCase("EXEC")) {
                        execs.incrementAndGet();
                        if (!siblings.isEmpty()) {
                            others.complete(Deadline.none(), siblings.poll());
                        }
                    }
                });
            try (Jedis mineConnection = new Jedis(listened)) {
                new Conveyor(mineConnection, clock, optimistic, ConveyorKeys.standard()).complete(Deadline.none(), mine);
            }
            assertThat(execs).as("EXECs of one completion while siblings finish before each").hasValue(1);
            while (!siblings.isEmpty()) {
                others.complete(Deadline.none(), siblings.poll());
            }
            assertThat(jedis.smembers("conveyor:done")).as("the parent done after its eleven children").hasSize(12)
                .contains("p");
            assertThat(jedis.scard("conveyor:settling")).as("no settling left").isZero();
        }
    }

    private static double bytesPerChildCompletion(Jedis jedis, Jedis info, int children) {
        jedis.flushAll();
        Conveyor conveyor = new Conveyor(jedis, new ManualClock(START));
        conveyor.add(Deadline.none(), Job.of("parents", null).withUuid("p"), false);
        Lease parent = conveyor.claim(Deadline.none(), "parents").orElseThrow();
        for (int i = 0; i < children; i++) {
            conveyor.add(Deadline.none(), Job.of("kids", null).withUuid(String.format("child-%05d", i))
                .withParent("p"), false);
        }
        conveyor.complete(Deadline.none(), parent);
        List<Lease> leases = new ArrayList<>();
        for (int i = 0; i < children; i++) {
            leases.add(conveyor.claim(Deadline.none(), "kids").orElseThrow());
        }
        long before = outputBytes(info);
        for (Lease lease : leases) {
            conveyor.complete(Deadline.none(), lease);
        }
        long used = outputBytes(info) - before;
        assertThat(jedis.sismember("conveyor:done", "p")).as("the parent completed after its last child").isTrue();
        return (double) used / children;
    }

    private static long outputBytes(Jedis info) {
        for (String line : info.info("stats").split("\r\n")) {
            if (line.startsWith("total_net_output_bytes:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        throw new AssertionError("no total_net_output_bytes in INFO stats");
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
