package dev.redsim.conformance.contracts.rescue;

import java.time.Duration;
import java.time.InstantSource;

/**
 * The implementation under test. Object ids must be the decimal numbers 1, 2, 3, ... in order of creation on a
 * flushed database (gaps only under contention), so that the model can predict them.
 */
public interface RescueSubject {
    /** A new engine on its own connection for one worker; all time must come from {@code clock}. */
    RescuePort connect(String host, int port, InstantSource clock, String worker);

    /** How long ownership lasts. */
    Duration lease();

    /** How long an addressed (all / uni) task waits to be addressed before Expire drops it. */
    Duration retention();

    /**
     * True when the implementation stores tasks in the key layout of docs/contracts/rescue.md: the histories then
     * also compare the raw keys (hashes, label indexes, state sorted sets, delivery sets) with the model after
     * every step ({@link RawRescueKeys}).
     */
    default boolean rawLayout() {
        return false;
    }
}
