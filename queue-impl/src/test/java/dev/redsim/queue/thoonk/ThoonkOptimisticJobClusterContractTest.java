package dev.redsim.queue.thoonk;

import dev.redsim.conformance.contracts.thoonk.ThoonkJobContract;
import dev.redsim.queue.script.Transitions;

/**
 * The thoonk job contract suite on both clusters with the contract's WATCH/MULTI transitions (the option for a Redis
 * that forbids scripts must hold on a cluster too).
 */
class ThoonkOptimisticJobClusterContractTest extends ThoonkJobClusterContractTest {
    @Override
    ThoonkJobContract contract(String which) {
        return new ThoonkJobContract(cluster(which), (t, feed, clock, settings, hook) ->
            new JedisThoonkJobQueue(t, feed, clock, settings, hook, Transitions.OPTIMISTIC));
    }
}
