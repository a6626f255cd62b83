package dev.redsim.conformance.contracts.conveyor;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The state a crash scenario builds with a healthy connection: the jobs it accepted and the leases it holds,
 * which the crashing operation then uses (a lease is data; it works from any connection of the same subject).
 */
final class CrashWorld {
    static final String QUEUE = ConveyorOp.QUEUES.get(0);

    final ConveyorPort port;
    final ManualClock clock;
    final Set<String> accepted = new LinkedHashSet<>();
    final Map<String, Claimed> leases = new HashMap<>();
    /** The uuid of the most recent claim. */
    String lastClaimed;

    CrashWorld(ConveyorPort port, ManualClock clock) {
        this.port = port;
        this.clock = clock;
    }

    static JobSpec job(String uuid) {
        return new JobSpec(uuid, QUEUE, "", "", 0, 0, uuid.getBytes());
    }

    CrashWorld add(JobSpec job) {
        port.add(job, false);
        accepted.add(job.uuid());
        return this;
    }

    /** Claims the next job and keeps its lease under the uuid it turned out to be. */
    Claimed claim() {
        Optional<Claimed> claimed = port.claim(QUEUE);
        Claimed c = claimed.orElseThrow(() -> new IllegalStateException("scenario setup: nothing to claim"));
        leases.put(c.uuid(), c);
        lastClaimed = c.uuid();
        return c;
    }

    void complete(String uuid) {
        if (!port.complete(leases.get(uuid))) {
            throw new IllegalStateException("scenario setup: completion refused");
        }
    }
}
