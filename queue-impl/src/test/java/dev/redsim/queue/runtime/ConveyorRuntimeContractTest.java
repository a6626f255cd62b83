package dev.redsim.queue.runtime;

import dev.redsim.conformance.contracts.runtime.RuntimeContract;
import dev.redsim.conformance.contracts.runtime.RuntimeSubject;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.api.Nested;

/** The runtime suite (racing, a host crashing after each command, graceful stop) for the Conveyor runtime. */
class ConveyorRuntimeContractTest {
    @Nested
    class OnSimulator extends RuntimeContract {
        @Override
        protected RedisTarget target() {
            return SharedTargets.simulator();
        }

        @Override
        protected RuntimeSubject subject() {
            return RuntimeSubjects.conveyor();
        }
    }

    @Nested
    class OnRedisServer extends RuntimeContract {
        @Override
        protected RedisTarget target() {
            return SharedTargets.reference();
        }

        @Override
        protected RuntimeSubject subject() {
            return RuntimeSubjects.conveyor();
        }
    }
}
