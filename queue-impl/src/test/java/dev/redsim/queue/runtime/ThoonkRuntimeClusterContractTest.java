package dev.redsim.queue.runtime;

import dev.redsim.conformance.contracts.runtime.RuntimeContract;
import dev.redsim.conformance.contracts.runtime.RuntimeSubject;
import dev.redsim.conformance.target.ClusterSlotTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedClusters;
import org.junit.jupiter.api.Nested;

/**
 * The runtime suite, unchanged, for the Thoonk runtime on 3-master clusters: started with a JedisCluster, its keys
 * under the hash tag of the target's node; the crash sweeps cut the connections to that node (decision 0019).
 */
class ThoonkRuntimeClusterContractTest {
    private static final String TAG = "rt-thoonk";

    @Nested
    class OnSimulatedCluster extends RuntimeContract {
        @Override
        protected RedisTarget target() {
            return SharedClusters.simulated(TAG);
        }

        @Override
        protected RuntimeSubject subject() {
            return RuntimeSubjects.thoonk((ClusterSlotTarget) target());
        }
    }

    @Nested
    class OnRedisCluster extends RuntimeContract {
        @Override
        protected RedisTarget target() {
            return SharedClusters.reference(TAG);
        }

        @Override
        protected RuntimeSubject subject() {
            return RuntimeSubjects.thoonk((ClusterSlotTarget) target());
        }
    }
}
