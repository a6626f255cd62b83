package dev.redsim.queue.conveyor;

import dev.redsim.conformance.contracts.conveyor.ConveyorContract;
import dev.redsim.conformance.contracts.conveyor.ConveyorSubject;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;

/** The Conveyor contract suite, our implementation, a real redis-server. */
class ConveyorReferenceContractTest extends ConveyorContract {
    @Override
    protected RedisTarget target() {
        return SharedTargets.reference();
    }

    @Override
    protected ConveyorSubject subject() {
        return new JedisConveyorSubject();
    }
}
