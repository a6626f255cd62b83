package dev.redsim.queue.conveyor;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The spec's Add, key by key, on both targets: the layout other Conveyor implementations read. */
class ConveyorAddTest {
    private static final long START = 1_700_000_000_000L;

    private static RedisTarget target(String name) {
        return name.equals("simulator") ? SharedTargets.simulator() : SharedTargets.reference();
    }

    private static Jedis connect(String name) {
        RedisTarget t = target(name);
        Jedis jedis = new Jedis(t.host(), t.port());
        jedis.flushAll();
        return jedis;
    }

    @ParameterizedTest
    @ValueSource(strings = {"simulator", "reference"})
    void addUsesTheSpecKeys(String name) {
        try (Jedis jedis = connect(name)) {
            ManualClock clock = new ManualClock(START);
            Conveyor conveyor = new Conveyor(jedis, clock);
            Job plain = conveyor.add(Deadline.none(), Job.of("q", "x".getBytes()), false);
            assertThat(plain.uuid()).isNotEmpty();
            assertThat(jedis.type("q")).isEqualTo("list");

            Job later = conveyor.add(Deadline.none(),
                    Job.of("q", null).withUuid("later").withRunAt(Instant.ofEpochMilli(START + 1500)), false);
            assertThat(jedis.type("scheduled")).isEqualTo("zset");
            assertThat(jedis.zscore("scheduled".getBytes(), JobWire.encode(later))).isEqualTo(1_700_000_001.5);

            conveyor.add(Deadline.none(), Job.of("q", null).withUuid("kid").withParent("P"), false);
            assertThat(jedis.type("jobs:P:children")).isEqualTo("list");
            conveyor.add(Deadline.none(), Job.of("q", null).withUuid("next").withPredecessor("P"), false);
            assertThat(jedis.type("jobs:P:onComplete")).isEqualTo("list");

            conveyor.add(Deadline.none(), Job.of("q", null).withUuid("orphan").withParent("Q"), true);
            assertThat(jedis.smembers("jobs:Q:active")).containsExactly("orphan");
            assertThat(jedis.llen("q")).isEqualTo(2);
            // LPUSH: the newest job is at the head, claims take the tail.
            assertThat(JobWire.decode(jedis.lindex("q".getBytes(), 0)).uuid()).isEqualTo("orphan");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"simulator", "reference"})
    void badInputCancellationAndRedisFailuresHaveTheirOwnExceptions(String name) {
        try (Jedis jedis = connect(name)) {
            Conveyor conveyor = new Conveyor(jedis, new ManualClock(START));
            assertThatThrownBy(() -> conveyor.add(Deadline.none(), null, false))
                    .isInstanceOf(InvalidJobException.class);
            assertThatThrownBy(() -> conveyor.add(Deadline.none(), Job.of("", null), false))
                    .isInstanceOf(InvalidJobException.class);
            Deadline cancelled = Deadline.none();
            cancelled.cancel();
            assertThatThrownBy(() -> conveyor.add(cancelled, Job.of("q", null), false))
                    .isInstanceOf(CancelledException.class);
            ManualClock clock = new ManualClock(START);
            Deadline passed = Deadline.at(clock, Instant.ofEpochMilli(START - 1));
            assertThatThrownBy(() -> conveyor.claim(passed, "q")).isInstanceOf(CancelledException.class);
            jedis.set("q", "not a list");
            assertThatThrownBy(() -> conveyor.add(Deadline.none(), Job.of("q", null), false))
                    .isInstanceOf(RedisFailureException.class);
            jedis.del("q");
            jedis.lpush("q".getBytes(), new byte[] {(byte) 0xff});
            // Bytes that are not a job do not block the queue: they move to the dead letters (decision 16).
            assertThat(conveyor.claim(Deadline.none(), "q")).isEmpty();
            assertThat(List.of(jedis.llen("q"))).containsExactly(0L);
            assertThat(jedis.lrange("conveyor:dead-letters".getBytes(), 0, -1)).containsExactly(new byte[] {(byte) 0xff});
        }
    }
}
