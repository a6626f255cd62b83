package dev.redsim.conformance.contracts.conveyor;

/**
 * A job as the suite asks for it: the suite chooses the uuid so that it can follow the job everywhere. Empty
 * strings mean "none"; runAtMillis 0 means "run now".
 */
public record JobSpec(String uuid, String queue, String parent, String predecessor, long runAtMillis,
                      int maxRetries, byte[] payload) {
}
