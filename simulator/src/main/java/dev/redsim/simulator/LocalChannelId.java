package dev.redsim.simulator;

import io.netty.channel.ChannelId;

/**
 * The id of a simulator's NIO channel (decision 0046): the listening channel's identity hash and the connection's
 * number among its accepted ones. Netty's {@code DefaultChannelId} is unique across machines and processes: its first
 * use in a JVM reads the process id and enumerates the network interfaces for a MAC address, a cost of a first start
 * that an in-process server's channels, which never leave the JVM, have no use for. Two ids are equal only when they
 * are the same id: the identity hash of a listening channel may repeat, so the values only order ids and name them in
 * Netty's messages.
 */
final class LocalChannelId implements ChannelId {
    private static final long serialVersionUID = 1L;

    private final int listener;
    private final long connection;

    /** {@code connection} 0 is the listening channel itself; its connections count from 1. */
    LocalChannelId(int listener, long connection) {
        this.listener = listener;
        this.connection = connection;
    }

    @Override
    public String asShortText() {
        return Integer.toHexString(listener) + "-" + connection;
    }

    @Override
    public String asLongText() {
        return "redsim-" + asShortText();
    }

    @Override
    public int compareTo(ChannelId other) {
        if (this == other) {
            return 0;
        }
        if (other instanceof LocalChannelId local) {
            int byListener = Integer.compare(listener, local.listener);
            if (byListener != 0) {
                return byListener;
            }
            int byConnection = Long.compare(connection, local.connection);
            if (byConnection != 0) {
                return byConnection;
            }
            // the same values for two listeners whose identity hashes collide: any fixed order that is not "equal"
            return Integer.compare(System.identityHashCode(this), System.identityHashCode(other)) <= 0 ? -1 : 1;
        }
        return asLongText().compareTo(other.asLongText());
    }

    @Override
    public int hashCode() {
        return listener * 31 + Long.hashCode(connection);
    }

    @Override
    public boolean equals(Object other) {
        return this == other;
    }

    @Override
    public String toString() {
        return asShortText();
    }
}
