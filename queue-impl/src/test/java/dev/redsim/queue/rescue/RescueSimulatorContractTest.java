package dev.redsim.queue.rescue;

import dev.redsim.conformance.contracts.rescue.RescueContract;
import dev.redsim.conformance.contracts.rescue.RescueSubject;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;

/** The rescue contract suite, our implementation, the in-process simulator. */
class RescueSimulatorContractTest extends RescueContract {
    @Override
    protected RedisTarget target() {
        return SharedTargets.simulator();
    }

    @Override
    protected RescueSubject subject() {
        return new JedisRescueSubject();
    }
}
