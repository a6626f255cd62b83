package dev.redsim.queue.conveyor;

import dev.redsim.conformance.contracts.conveyor.ConveyorContract;
import dev.redsim.conformance.contracts.conveyor.ConveyorSubject;
import dev.redsim.conformance.target.ClusterSlotTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedClusters;
import org.junit.jupiter.api.Nested;

/**
 * The Conveyor contract suite, unchanged, on 3-master clusters: our implementation through a JedisCluster, every key
 * under the hash tag of the target's node (decision 0019); scripts (the default). The WATCH/MULTI form
 * runs on clusters in {@link ConveyorOptimisticClusterContractTest} (-Pnightly).
 */
class ConveyorClusterContractTest {
    private static final String TAG = "conveyor";

    @Nested
    class OnSimulatedCluster extends ConveyorContract {
        @Override
        protected RedisTarget target() {
            return SharedClusters.simulated(TAG);
        }

        @Override
        protected ConveyorSubject subject() {
            return new JedisConveyorSubject((ClusterSlotTarget) target());
        }
    }

    @Nested
    class OnRedisCluster extends ConveyorContract {
        @Override
        protected RedisTarget target() {
            return SharedClusters.reference(TAG);
        }

        @Override
        protected ConveyorSubject subject() {
            return new JedisConveyorSubject((ClusterSlotTarget) target());
        }
    }
}
