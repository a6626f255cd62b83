package dev.redsim.queue.thoonk;

/**
 * Called before each command a {@link ListenedConnection} sends. Fault-injection tests throw from it (the client
 * "dies" after its k-th command) or run another client's work at an exact point of an operation.
 */
@FunctionalInterface
public interface CommandListener {
    /** @param sent how many commands this connection has sent before this one */
    void beforeCommand(int sent, String command);
}
