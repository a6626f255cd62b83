package dev.redsim.queue.conveyor;

import dev.redsim.conformance.contracts.conveyor.ConveyorContract;
import dev.redsim.conformance.contracts.conveyor.ConveyorSubject;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import dev.redsim.queue.script.Transitions;
import org.junit.jupiter.api.Nested;

/**
 * The Conveyor contract suite on both targets with the WATCH/MULTI transitions (the option for a Redis that forbids
 * scripts); ConveyorSimulatorContractTest and ConveyorReferenceContractTest run the default, Lua scripts.
 */
class ConveyorOptimisticContractTest {
    @Nested
    class OnSimulator extends ConveyorContract {
        @Override
        protected RedisTarget target() {
            return SharedTargets.simulator();
        }

        @Override
        protected ConveyorSubject subject() {
            return new JedisConveyorSubject(Transitions.OPTIMISTIC);
        }
    }

    @Nested
    class OnRedisServer extends ConveyorContract {
        @Override
        protected RedisTarget target() {
            return SharedTargets.reference();
        }

        @Override
        protected ConveyorSubject subject() {
            return new JedisConveyorSubject(Transitions.OPTIMISTIC);
        }
    }
}
