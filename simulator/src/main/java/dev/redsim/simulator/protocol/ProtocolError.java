package dev.redsim.simulator.protocol;

/**
 * Emitted by {@link RespParser} in place of a command when the input violates the protocol.
 * Redis answers with {@code -ERR Protocol error: <message>} and closes the connection after the reply.
 */
public record ProtocolError(String message) {
}
