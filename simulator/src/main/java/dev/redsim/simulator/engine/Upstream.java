package dev.redsim.simulator.engine;

/**
 * What a replica knows of its master (Redis's server.masterhost / masterport and the master client): where it is, for
 * INFO replication and ROLE. The offsets are the replica's own {@link Replication}'s, which carries on the master's
 * history byte for byte.
 */
public record Upstream(String host, int port) {
}
