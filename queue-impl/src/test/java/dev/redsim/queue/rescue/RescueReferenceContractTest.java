package dev.redsim.queue.rescue;

import dev.redsim.conformance.contracts.rescue.RescueContract;
import dev.redsim.conformance.contracts.rescue.RescueSubject;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;

/** The rescue contract suite, our implementation, a real redis-server. */
class RescueReferenceContractTest extends RescueContract {
    @Override
    protected RedisTarget target() {
        return SharedTargets.reference();
    }

    @Override
    protected RescueSubject subject() {
        return new JedisRescueSubject();
    }
}
