package dev.redsim.queue.conveyor;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Lease extension, expiry, recovery and fencing of the stale owner, on both targets. */
class ConveyorLeaseTest {

    @ParameterizedTest
    @ValueSource(strings = {"simulator", "reference"})
    void extendedLeasesSurviveRecoveryAndStaleOwnersAreFencedOff(String name) {
        RedisTarget target = name.equals("simulator") ? SharedTargets.simulator() : SharedTargets.reference();
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            jedis.flushAll();
            ManualClock clock = new ManualClock(1_700_000_000_000L);
            Conveyor conveyor = new Conveyor(jedis, clock); // lease 30 s
            conveyor.add(Deadline.none(), Job.of("q", null).withUuid("j"), false);
            Lease first = conveyor.claim(Deadline.none(), "q").orElseThrow();

            clock.advance(20_000);
            Lease extended = conveyor.extend(Deadline.none(), first);
            clock.advance(20_000);
            assertThat(conveyor.recoverExpiredLeases(Deadline.none())).isZero();
            clock.advance(11_000);
            assertThat(conveyor.recoverExpiredLeases(Deadline.none())).isEqualTo(1);

            assertThatThrownBy(() -> conveyor.extend(Deadline.none(), extended)).isInstanceOf(LeaseLostException.class);
            assertThatThrownBy(() -> conveyor.complete(Deadline.none(), first)).isInstanceOf(LeaseLostException.class);
            Lease second = conveyor.claim(Deadline.none(), "q").orElseThrow();
            assertThat(second.token()).isNotEqualTo(first.token());
            assertThatThrownBy(() -> conveyor.fail(Deadline.none(), first, "late")).isInstanceOf(LeaseLostException.class);
            conveyor.complete(Deadline.none(), second);
            assertThat(jedis.smembers("conveyor:done")).containsExactly("j");
            assertThat(JobWire.decode(jedis.get("jobs:j".getBytes())).status()).isEqualTo(JobStatus.COMPLETED);
        }
    }
}
