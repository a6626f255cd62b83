package dev.redsim.simulator.protocol;

/** What the decoder must know about the connection and the server to apply Redis's input limits. */
public interface DecoderLimits {
    /** proto-max-bulk-len: the largest bulk string accepted. */
    long maxBulkLength();

    /** client-query-buffer-limit: the most input a client may have sent that is not yet a whole command. */
    long maxQueryBuffer();

    /** False while the server wants a password this connection has not given (Redis then caps lengths). */
    boolean authenticated();
}
