package dev.redsim.queue.conveyor;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

/**
 * A printed figure, not a test of speed: jobs per second of one client looping add, claim, complete on each
 * target. Only correctness is asserted (each claim finds a job).
 */
class ConveyorThroughputTest {
    private static final int JOBS = Integer.getInteger("redsim.conveyor.benchJobs", 2000);

    @ParameterizedTest
    @ValueSource(strings = {"simulator", "reference"})
    void addClaimCompleteLoop(String name) {
        RedisTarget target = name.equals("simulator") ? SharedTargets.simulator() : SharedTargets.reference();
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            jedis.flushAll();
            Conveyor conveyor = new Conveyor(jedis, new ManualClock(1_700_000_000_000L));
            loop(conveyor, JOBS / 4);
            long start = System.nanoTime();
            loop(conveyor, JOBS);
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("conveyor add-claim-complete on %s: %.0f jobs/s (%d jobs, one client)%n",
                    target.name(), JOBS / seconds, JOBS);
        }
    }

    private static void loop(Conveyor conveyor, int jobs) {
        for (int i = 0; i < jobs; i++) {
            conveyor.add(Deadline.none(), Job.of("bench", new byte[16]), false);
            Lease lease = conveyor.claim(Deadline.none(), "bench").orElseThrow();
            conveyor.complete(Deadline.none(), lease);
        }
    }
}
