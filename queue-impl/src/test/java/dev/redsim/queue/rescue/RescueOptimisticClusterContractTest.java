package dev.redsim.queue.rescue;

import dev.redsim.conformance.contracts.rescue.RescueContract;
import dev.redsim.conformance.contracts.rescue.RescueSubject;
import dev.redsim.conformance.target.ClusterSlotTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedClusters;
import dev.redsim.queue.script.Transitions;
import org.junit.jupiter.api.Nested;

/**
 * The Rescue contract suite on 3-master clusters with the WATCH/MULTI transitions (the option for a Redis that
 * forbids scripts). Run by -Pnightly only: the scripted default runs on both clusters in every build
 * (RescueClusterContractTest), this form on single servers in every build, and the normal build must stay short.
 */
class RescueOptimisticClusterContractTest {
    private static final String TAG = "rescue:" + JedisRescueSubject.QUEUE;

    @Nested
    class OptimisticOnSimulatedCluster extends RescueContract {
        @Override
        protected RedisTarget target() {
            return SharedClusters.simulated(TAG);
        }

        @Override
        protected RescueSubject subject() {
            return new JedisRescueSubject(Transitions.OPTIMISTIC, (ClusterSlotTarget) target());
        }
    }

    @Nested
    class OptimisticOnRedisCluster extends RescueContract {
        @Override
        protected RedisTarget target() {
            return SharedClusters.reference(TAG);
        }

        @Override
        protected RescueSubject subject() {
            return new JedisRescueSubject(Transitions.OPTIMISTIC, (ClusterSlotTarget) target());
        }
    }
}
