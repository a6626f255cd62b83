package dev.redsim.simulator.engine;

import dev.redsim.simulator.server.ClientConnection;

import java.util.ArrayList;
import java.util.List;

/**
 * CLIENT PAUSE (pauseClients): until its end on the simulator's clock, the commands of every client (ALL) or
 * those that may write (WRITE) are postponed, client by client in the order they came, and run when the pause
 * ends (its time passes, or CLIENT UNPAUSE). A later pause extends the end and can only make the mode stricter.
 * Active expiry waits meanwhile, as Redis's does.
 */
public final class ClientPause {
    private boolean active;
    private boolean writeOnly;
    private long endMillis;
    private final List<ClientConnection> postponed = new ArrayList<>();

    /** CLIENT PAUSE timeout [WRITE|ALL]. */
    public void pause(long endMillis, boolean writeOnly) {
        if (!active) {
            this.active = true;
            this.writeOnly = writeOnly;
            this.endMillis = endMillis;
            return;
        }
        this.writeOnly = this.writeOnly && writeOnly;
        this.endMillis = Math.max(this.endMillis, endMillis);
    }

    public boolean active() {
        return active;
    }

    /** Whether a command (that may write, or not) must wait for the pause to end. */
    public boolean holds(boolean mayWrite) {
        return active && (!writeOnly || mayWrite);
    }

    /** blockPostponeClient: the client waits, its command first in its queue. */
    public void postpone(ClientConnection client, Object command) {
        client.deferInputFirst(command);
        client.blocked(true);
        postponed.add(client);
    }

    /** The pause's end has come (or CLIENT UNPAUSE): the clients it held, in the order they were held. */
    public List<ClientConnection> endIfDue(long nowMillis, boolean now) {
        if (!active || (!now && nowMillis < endMillis)) {
            return List.of();
        }
        active = false;
        List<ClientConnection> released = new ArrayList<>(postponed);
        postponed.clear();
        for (ClientConnection client : released) {
            client.blocked(false);
        }
        return released;
    }

    public void forget(ClientConnection client) {
        postponed.remove(client);
    }
}
