package dev.redsim.conformance.contracts.jq;

import java.time.Duration;
import java.time.InstantSource;

/** The implementation under test: how to connect it, and the timing policy it promises. */
public interface JqSubject {
    /** A new connection; all time must come from {@code clock}. */
    JqPort connect(String host, int port, InstantSource clock);

    /** The wait before retry {@code retry} (1-based) becomes eligible. */
    Duration backoff(int retry);

    /** How long a kept result stays readable. */
    Duration resultRetention();
}
