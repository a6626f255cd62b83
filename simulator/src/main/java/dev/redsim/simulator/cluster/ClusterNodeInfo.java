package dev.redsim.simulator.cluster;

import java.util.List;

/**
 * One node as the whole cluster knows it: its 40-character hex ID, where clients reach it, the bus port it announces
 * (nothing listens there: the simulated nodes share one process and need no bus), its config epoch, and the slot
 * ranges it serves (inclusive, in slot order).
 */
public record ClusterNodeInfo(String id, String host, int port, int busPort, long configEpoch, List<SlotRange> slots) {
    public record SlotRange(int first, int last) {
        public int size() {
            return last - first + 1;
        }
    }

    public String address() {
        return host + ":" + port;
    }
}
