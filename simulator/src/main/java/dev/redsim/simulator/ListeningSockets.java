package dev.redsim.simulator;

import java.net.InetSocketAddress;
import java.util.List;

/** A transport's listening sockets for one server, as {@link Listeners} opens and closes them. */
interface ListeningSockets {
    /**
     * A socket bound and listening on the address when this returns (so its port is known), accepting from the loop
     * from then on.
     */
    Listening listen(InetSocketAddress address) throws Exception;

    /** Closes the sockets; their ports are free again when this returns (Redis closes a port at once). */
    void closeAll(List<Listening> sockets);

    /** One listening socket. */
    interface Listening {
        int port();
    }
}
