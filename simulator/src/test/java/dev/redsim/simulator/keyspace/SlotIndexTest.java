package dev.redsim.simulator.keyspace;

import dev.redsim.simulator.util.KeyHashSlot;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The per-slot key lists: newest first, kept through removals, and empty (and usable again) after a clear. */
class SlotIndexTest {

    @Test
    void keepsKeysPerSlotNewestFirstAndStartsOverAfterAClear() {
        SlotIndex index = new SlotIndex();
        Bytes a = Bytes.of("{t}a");
        Bytes b = Bytes.of("{t}b");
        Bytes c = Bytes.of("{t}c");
        int slot = KeyHashSlot.of(a.bytes());
        index.added(a);
        index.added(b);
        index.added(c);
        index.added(b); // already there: nothing changes
        assertThat(index.count(slot)).isEqualTo(3);
        assertThat(index.keys(slot, 10)).containsExactly(c, b, a);
        index.removed(b);
        assertThat(index.keys(slot, 10)).containsExactly(c, a);
        index.clear();
        assertThat(index.count(slot)).isZero();
        assertThat(index.keys(slot, 10)).isEmpty();
        index.added(a);
        index.removed(c); // gone with the clear: nothing to remove
        assertThat(index.keys(slot, 10)).containsExactly(a);
        assertThat(index.count(slot)).isEqualTo(1);
    }
}
