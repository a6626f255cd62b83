package dev.redsim.conformance.contracts.conveyor;

import java.time.Duration;
import java.time.InstantSource;

/** The implementation under test: how to connect it to a Redis, and the timing policy it promises. */
public interface ConveyorSubject {
    /** A new connection; all time must come from {@code clock}. */
    ConveyorPort connect(String host, int port, InstantSource clock);

    /**
     * What the implementation puts before the spec's key names ("" = the spec's names exactly); on a cluster it
     * carries the hash tag of the target's node. The suite reads the spec's keys under it.
     */
    default String keyPrefix() {
        return "";
    }

    /** How long a claim stays exclusive. */
    Duration lease();

    /** The delay before retry number {@code retry} (1-based); the suite checks it never shrinks. */
    Duration backoff(int retry);
}
