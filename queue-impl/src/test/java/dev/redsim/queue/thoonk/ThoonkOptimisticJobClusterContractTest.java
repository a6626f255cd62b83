package dev.redsim.queue.thoonk;

import dev.redsim.conformance.contracts.thoonk.ThoonkJobContract;
import dev.redsim.queue.script.Transitions;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The thoonk job contract suite on both clusters with the contract's WATCH/MULTI transitions: in the nightly run
 * (-Pnightly, or -Dredsim.cluster.optimistic=true), for the normal build's time.
 */
@EnabledIfSystemProperty(named = "redsim.cluster.optimistic", matches = "true")
class ThoonkOptimisticJobClusterContractTest extends ThoonkJobClusterContractTest {
    @Override
    ThoonkJobContract contract(String which) {
        return new ThoonkJobContract(cluster(which), (t, feed, clock, settings, hook) ->
            new JedisThoonkJobQueue(t, feed, clock, settings, hook, Transitions.OPTIMISTIC));
    }
}
