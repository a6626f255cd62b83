package dev.redsim.queue.rescue;

import dev.redsim.conformance.contracts.rescue.RescueContract;
import dev.redsim.conformance.contracts.rescue.RescueSubject;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import dev.redsim.queue.script.Transitions;
import org.junit.jupiter.api.Nested;

/**
 * The rescue contract suite on both targets with the WATCH/MULTI transitions (the option for a Redis that forbids
 * scripts); RescueSimulatorContractTest and RescueReferenceContractTest run the default, Lua scripts.
 */
class RescueOptimisticContractTest {
    @Nested
    class OnSimulator extends RescueContract {
        @Override
        protected RedisTarget target() {
            return SharedTargets.simulator();
        }

        @Override
        protected RescueSubject subject() {
            return new JedisRescueSubject(Transitions.OPTIMISTIC);
        }
    }

    @Nested
    class OnRedisServer extends RescueContract {
        @Override
        protected RedisTarget target() {
            return SharedTargets.reference();
        }

        @Override
        protected RescueSubject subject() {
            return new JedisRescueSubject(Transitions.OPTIMISTIC);
        }
    }
}
