package dev.redsim.simulator.cluster;

import dev.redsim.simulator.util.KeyHashSlot;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The slot arithmetic: CRC16 and hash tags as cluster.c has them, and redis-cli's split of the slots. */
class SlotSplitTest {
    private static int slot(String key) {
        return KeyHashSlot.of(key.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void keySlotsAreRedisCrc16WithHashTags() {
        // the reference value of CRC16/XMODEM, which the Redis Cluster specification quotes
        assertThat(KeyHashSlot.of("123456789".getBytes(StandardCharsets.US_ASCII))).isEqualTo(0x31C3);
        // values redis-server 7.0 answers to CLUSTER KEYSLOT
        assertThat(slot("somekey")).isEqualTo(11058);
        assertThat(slot("a")).isEqualTo(15495);
        assertThat(slot("{user1000}.following")).isEqualTo(slot("user1000"));
        assertThat(slot("foo{}{bar}")).isEqualTo(slot("foo{}{bar}")).isNotEqualTo(slot("bar"));
        assertThat(slot("foo{{bar}}zap")).isEqualTo(slot("{bar"));
        assertThat(slot("foo{bar}{zap}")).isEqualTo(slot("bar"));
    }

    @Test
    void threeMastersSplitAsRedisCliSplits() {
        assertThat(SlotSplit.of(3)).containsExactly(new ClusterNodeInfo.SlotRange(0, 5460),
                new ClusterNodeInfo.SlotRange(5461, 10922), new ClusterNodeInfo.SlotRange(10923, 16383));
    }

    @Test
    void everySplitCoversEverySlotOnceInOrder() {
        for (int masters : new int[] {1, 2, 4, 5, 6, 7, 10, 100, 1000}) {
            List<ClusterNodeInfo.SlotRange> ranges = SlotSplit.of(masters);
            assertThat(ranges).hasSize(masters);
            int next = 0;
            for (ClusterNodeInfo.SlotRange range : ranges) {
                assertThat(range.first()).isEqualTo(next);
                assertThat(range.size()).as("%d masters", masters)
                        .isBetween(KeyHashSlot.SLOTS / masters - 1, KeyHashSlot.SLOTS / masters + 2);
                next = range.last() + 1;
            }
            assertThat(next).isEqualTo(KeyHashSlot.SLOTS);
        }
    }
}
