package dev.redsim.simulator.net;

/**
 * A channel registered with a {@link SelectorLoop}'s selector, attached to its key: what the loop tells it. An
 * abstract class rather than an interface so that these stay package-private. Loop thread only.
 */
abstract class LoopChannel {
    /** The selector found the channel ready for {@code readyOps} (the key is valid). */
    abstract void ready(int readyOps);

    /**
     * The loop is shutting down: close now (a connection's driver hears closed()). The loop closes its selector
     * afterwards, which releases the sockets, so a listener need not wait for that here.
     */
    abstract void closeForShutdown();
}
