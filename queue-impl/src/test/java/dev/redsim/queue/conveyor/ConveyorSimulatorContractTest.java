package dev.redsim.queue.conveyor;

import dev.redsim.conformance.contracts.conveyor.ConveyorContract;
import dev.redsim.conformance.contracts.conveyor.ConveyorSubject;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;

/** The Conveyor contract suite, our implementation, the in-process simulator. */
class ConveyorSimulatorContractTest extends ConveyorContract {
    @Override
    protected RedisTarget target() {
        return SharedTargets.simulator();
    }

    @Override
    protected ConveyorSubject subject() {
        return new JedisConveyorSubject();
    }
}
