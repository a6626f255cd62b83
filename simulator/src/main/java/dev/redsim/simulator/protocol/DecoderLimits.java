package dev.redsim.simulator.protocol;

/** What the decoder must know about the connection and the server to apply Redis's input limits. */
public interface DecoderLimits {
    /** proto-max-bulk-len: the largest bulk string accepted. */
    long maxBulkLength();

    /** False while the server wants a password this connection has not given (Redis then caps lengths). */
    boolean authenticated();
}
