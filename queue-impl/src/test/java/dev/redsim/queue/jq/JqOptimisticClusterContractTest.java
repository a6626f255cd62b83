package dev.redsim.queue.jq;

import dev.redsim.conformance.contracts.jq.JqContract;
import dev.redsim.conformance.contracts.jq.JqSubject;
import dev.redsim.conformance.target.ClusterSlotTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedClusters;
import dev.redsim.queue.script.Transitions;
import org.junit.jupiter.api.Nested;

/**
 * The Jq contract suite on 3-master clusters with the WATCH/MULTI transitions (the option for a Redis that
 * forbids scripts). Run by -Pnightly only: the scripted default runs on both clusters in every build
 * (JqClusterContractTest), this form on single servers in every build, and the normal build must stay short.
 */
class JqOptimisticClusterContractTest {
    private static final String TAG = "jq";

    @Nested
    class OptimisticOnSimulatedCluster extends JqContract {
        @Override
        protected RedisTarget target() {
            return SharedClusters.simulated(TAG);
        }

        @Override
        protected JqSubject subject() {
            return new JedisJqSubject(Transitions.OPTIMISTIC, (ClusterSlotTarget) target());
        }
    }

    @Nested
    class OptimisticOnRedisCluster extends JqContract {
        @Override
        protected RedisTarget target() {
            return SharedClusters.reference(TAG);
        }

        @Override
        protected JqSubject subject() {
            return new JedisJqSubject(Transitions.OPTIMISTIC, (ClusterSlotTarget) target());
        }
    }
}
