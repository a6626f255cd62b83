package dev.redsim.queue.jq;

import dev.redsim.conformance.contracts.jq.JqContract;
import dev.redsim.conformance.contracts.jq.JqSubject;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import dev.redsim.queue.script.Transitions;
import org.junit.jupiter.api.Nested;

/**
 * The JQ contract suite on both targets with the WATCH/MULTI transitions (the option for a Redis that forbids
 * scripts); JqSimulatorContractTest and JqReferenceContractTest run the default, Lua scripts.
 */
class JqOptimisticContractTest {
    @Nested
    class OnSimulator extends JqContract {
        @Override
        protected RedisTarget target() {
            return SharedTargets.simulator();
        }

        @Override
        protected JqSubject subject() {
            return new JedisJqSubject(Transitions.OPTIMISTIC);
        }
    }

    @Nested
    class OnRedisServer extends JqContract {
        @Override
        protected RedisTarget target() {
            return SharedTargets.reference();
        }

        @Override
        protected JqSubject subject() {
            return new JedisJqSubject(Transitions.OPTIMISTIC);
        }
    }
}
