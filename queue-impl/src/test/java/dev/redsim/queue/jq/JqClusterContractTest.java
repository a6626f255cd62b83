package dev.redsim.queue.jq;

import dev.redsim.conformance.contracts.jq.JqContract;
import dev.redsim.conformance.contracts.jq.JqSubject;
import dev.redsim.conformance.target.ClusterSlotTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedClusters;
import dev.redsim.queue.script.Transitions;
import org.junit.jupiter.api.Nested;

/**
 * The JQ contract suite, unchanged, on 3-master clusters: our JobQueue on a connection of a JedisCluster, every key of
 * the namespace under the prefix {jq}: (docs/contracts/jq.md), the suite's target being the master of that slot;
 * scripts (the default). The WATCH/MULTI form runs on clusters in {@link JqOptimisticClusterContractTest} (-Pnightly).
 */
class JqClusterContractTest {
    private static final String TAG = "jq";

    @Nested
    class OnSimulatedCluster extends JqContract {
        @Override
        protected RedisTarget target() {
            return SharedClusters.simulated(TAG);
        }

        @Override
        protected JqSubject subject() {
            return new JedisJqSubject(Transitions.SCRIPTS, (ClusterSlotTarget) target());
        }
    }

    @Nested
    class OnRedisCluster extends JqContract {
        @Override
        protected RedisTarget target() {
            return SharedClusters.reference(TAG);
        }

        @Override
        protected JqSubject subject() {
            return new JedisJqSubject(Transitions.SCRIPTS, (ClusterSlotTarget) target());
        }
    }
}
