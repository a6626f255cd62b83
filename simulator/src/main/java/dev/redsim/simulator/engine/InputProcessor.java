package dev.redsim.simulator.engine;

import dev.redsim.simulator.server.ClientConnection;

/**
 * The command layer as the engine sees it: whatever runs one decoded message of a client (a command, or a
 * protocol error). The engine calls it for input that waited (a blocked client woken, a busy script's caller)
 * without knowing the command table that sits above it.
 */
@FunctionalInterface
public interface InputProcessor {
    void process(ClientConnection client, Object message);
}
