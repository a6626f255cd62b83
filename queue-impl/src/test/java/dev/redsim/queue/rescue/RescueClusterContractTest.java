package dev.redsim.queue.rescue;

import dev.redsim.conformance.contracts.rescue.RescueContract;
import dev.redsim.conformance.contracts.rescue.RescueSubject;
import dev.redsim.conformance.target.ClusterSlotTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedClusters;
import dev.redsim.queue.script.Transitions;
import org.junit.jupiter.api.Nested;

/**
 * The rescue contract suite, unchanged, on 3-master clusters: our engine on a connection of a JedisCluster, every key
 * under the queue's hash tag {rescue:contract} (docs/contracts/rescue.md), the suite's target being the master of
 * that slot; scripts (the default). The WATCH/MULTI form
 * runs on clusters in {@link RescueOptimisticClusterContractTest} (-Pnightly).
 */
class RescueClusterContractTest {
    private static final String TAG = "rescue:" + JedisRescueSubject.QUEUE;

    @Nested
    class OnSimulatedCluster extends RescueContract {
        @Override
        protected RedisTarget target() {
            return SharedClusters.simulated(TAG);
        }

        @Override
        protected RescueSubject subject() {
            return new JedisRescueSubject(Transitions.SCRIPTS, (ClusterSlotTarget) target());
        }
    }

    @Nested
    class OnRedisCluster extends RescueContract {
        @Override
        protected RedisTarget target() {
            return SharedClusters.reference(TAG);
        }

        @Override
        protected RescueSubject subject() {
            return new JedisRescueSubject(Transitions.SCRIPTS, (ClusterSlotTarget) target());
        }
    }
}
