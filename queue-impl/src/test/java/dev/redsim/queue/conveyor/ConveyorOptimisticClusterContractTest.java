package dev.redsim.queue.conveyor;

import dev.redsim.conformance.contracts.conveyor.ConveyorContract;
import dev.redsim.conformance.contracts.conveyor.ConveyorSubject;
import dev.redsim.conformance.target.ClusterSlotTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedClusters;
import dev.redsim.queue.script.Transitions;
import org.junit.jupiter.api.Nested;

/**
 * The Conveyor contract suite on 3-master clusters with the WATCH/MULTI transitions (the option for a Redis that
 * forbids scripts). Run by -Pnightly only: the scripted default runs on both clusters in every build
 * (ConveyorClusterContractTest), this form on single servers in every build, and the normal build must stay short.
 */
class ConveyorOptimisticClusterContractTest {
    private static final String TAG = "conveyor";

    @Nested
    class OptimisticOnSimulatedCluster extends ConveyorContract {
        @Override
        protected RedisTarget target() {
            return SharedClusters.simulated(TAG);
        }

        @Override
        protected ConveyorSubject subject() {
            return new JedisConveyorSubject((ClusterSlotTarget) target(), Transitions.OPTIMISTIC);
        }
    }

    @Nested
    class OptimisticOnRedisCluster extends ConveyorContract {
        @Override
        protected RedisTarget target() {
            return SharedClusters.reference(TAG);
        }

        @Override
        protected ConveyorSubject subject() {
            return new JedisConveyorSubject((ClusterSlotTarget) target(), Transitions.OPTIMISTIC);
        }
    }
}
