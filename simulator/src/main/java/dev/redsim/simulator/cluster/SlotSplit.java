package dev.redsim.simulator.cluster;

import dev.redsim.simulator.util.KeyHashSlot;

import java.util.ArrayList;
import java.util.List;

/**
 * How redis-cli --cluster create divides the 16384 slots among N masters: each takes 16384/N slots, the boundary
 * rounded to the nearest slot from a running single-precision cursor, the last master taking what is left (so 3
 * masters serve 0-5460, 5461-10922 and 10923-16383, as on a real cluster).
 */
public final class SlotSplit {
    private SlotSplit() {
    }

    public static List<ClusterNodeInfo.SlotRange> of(int masters) {
        if (masters < 1 || masters > KeyHashSlot.SLOTS) {
            throw new IllegalArgumentException("masters out of range: " + masters);
        }
        // float, as redis-cli computes it: the rounding of the boundaries follows single precision
        float perNode = KeyHashSlot.SLOTS / (float) masters;
        float cursor = 0f;
        int first = 0;
        List<ClusterNodeInfo.SlotRange> ranges = new ArrayList<>();
        for (int i = 0; i < masters; i++) {
            long last = Math.round(cursor + perNode - 1);
            if (last > KeyHashSlot.SLOTS || i == masters - 1) {
                last = KeyHashSlot.SLOTS - 1;
            }
            if (last < first) {
                last = first;
            }
            ranges.add(new ClusterNodeInfo.SlotRange(first, (int) last));
            first = (int) last + 1;
            cursor += perNode;
        }
        return ranges;
    }
}
