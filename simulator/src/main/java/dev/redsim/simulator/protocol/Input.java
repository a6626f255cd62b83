package dev.redsim.simulator.protocol;

/**
 * The bytes a connection has read and not yet decoded, as the decoder reads them, whichever transport holds them
 * (the transport's input buffer, or a test's array): Redis's query buffer.
 */
public interface Input {
    /** How many bytes are there to decode. */
    int readableBytes();

    /** Copies the first {@code length} readable bytes into {@code target} without consuming them. */
    void peek(byte[] target, int offset, int length);

    /** Copies the first {@code length} readable bytes into {@code target} and consumes them. */
    void read(byte[] target, int offset, int length);

    /** Consumes {@code length} bytes. */
    void skip(int length);
}
