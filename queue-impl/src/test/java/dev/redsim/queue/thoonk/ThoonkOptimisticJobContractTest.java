package dev.redsim.queue.thoonk;

import dev.redsim.conformance.contracts.thoonk.ThoonkJobContract;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.queue.script.Transitions;

/** The thoonk job contract suite with the WATCH/MULTI transitions (the option for a Redis that forbids scripts). */
class ThoonkOptimisticJobContractTest extends ThoonkJobContractTest {
    @Override
    ThoonkJobContract contract(RedisTarget target) {
        return new ThoonkJobContract(target, (t, feed, clock, settings, hook) ->
            new JedisThoonkJobQueue(t, feed, clock, settings, hook, Transitions.OPTIMISTIC));
    }
}
