package dev.redsim.simulator.engine;

/**
 * A replica on the same thread as its master (a node of a simulated cluster): instead of bytes on a socket it receives
 * each command of the stream as its master writes it, and applies it at once (decision 0022).
 */
public interface StreamReceiver {
    /** One command of the stream (a SELECT, a PING and REPLCONF GETACK included), with its encoded length in bytes. */
    void receive(byte[][] argv, int encodedLength);
}
