package dev.redsim.simulator.keyspace;

import org.junit.jupiter.api.Test;

import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The packed fields of a listpack hash (one byte array, each entry behind its length) keep a listpack's order: insertion order, an update in place, a removal
 * closing the gap. A LinkedHashMap has exactly that order, so it is the model.
 */
class ListpackPairsTest {

    private static Bytes field(int i) {
        return Bytes.of("f" + i);
    }

    /** The listpack size kept by every write is what counting each field and value as listpackEntry gives. */
    @Test
    void measuresItsEntriesAsTheListpackWouldHoldThem() {
        Random random = new Random(32);
        ListpackPairs pairs = new ListpackPairs();
        String[] shapes = {"", "7", "-4096", "70000", "-1", "01", "12345678901", "9223372036854775808", "text"};
        for (int step = 0; step < 2_000; step++) {
            String text = random.nextInt(4) == 0 ? "x".repeat(random.nextInt(5000))
                    : shapes[random.nextInt(shapes.length)] + (random.nextBoolean() ? "" : random.nextInt(100));
            int op = random.nextInt(12);
            if (op < 2) {
                pairs.remove(field(random.nextInt(30)));
            } else if (op < 5) {
                // HSET's write: a value of the same length goes over the old one in place, its encoding may change
                pairs.set(field(random.nextInt(30)), random.nextBoolean() ? "ab".getBytes() : "12".getBytes());
            } else if (op == 5 && random.nextInt(20) == 0) {
                pairs.clear();
            } else {
                pairs.put(random.nextBoolean() ? field(random.nextInt(30)) : Bytes.of(text), text.getBytes());
            }
            long expected = 0;
            for (Map.Entry<Bytes, byte[]> e : pairs.entrySet()) {
                expected += MemoryLayout.listpackEntry(e.getKey().bytes()) + MemoryLayout.listpackEntry(e.getValue());
            }
            assertThat(pairs.listpackEntryBytes()).isEqualTo(expected);
        }
    }

    @Test
    void keepsTheOrderOfALinkedHashMapUnderRandomOperations() {
        Random random = new Random(11);
        ListpackPairs pairs = new ListpackPairs();
        Map<Bytes, byte[]> model = new LinkedHashMap<>();
        for (int step = 0; step < 20_000; step++) {
            Bytes field = field(random.nextInt(40));
            byte[] value = ("v" + step).getBytes();
            switch (random.nextInt(4)) {
                case 0 -> assertThat(pairs.put(field, value)).isEqualTo(model.put(field, value));
                case 1 -> assertThat(pairs.remove(field)).isEqualTo(model.remove(field));
                // HSET's write: a value of the same length is written over the old one in its place
                case 2 -> assertThat(pairs.set(field, value)).isEqualTo(model.put(field, value) != null);
                default -> assertThat(pairs.get(field)).isEqualTo(model.get(field));
            }
            assertThat(pairs.size()).isEqualTo(model.size());
        }
        assertThat(pairs.keySet()).containsExactlyElementsOf(model.keySet());
        Iterator<byte[]> values = model.values().iterator();
        pairs.forEach((f, v) -> assertThat(v).isEqualTo(values.next()));
    }

    @Test
    void longEntriesEmptyOnesAndAWriteDuringAWalk() {
        ListpackPairs pairs = new ListpackPairs();
        byte[] big = "x".repeat(70_000).getBytes(); // a four-byte length
        pairs.put(field(1), big);
        pairs.put(Bytes.wrap(new byte[0]), new byte[0]);
        pairs.put(Bytes.wrap(big), "b".getBytes());
        assertThat(pairs.get(field(1))).isEqualTo(big);
        assertThat(pairs.get(Bytes.wrap(new byte[0]))).isEmpty();
        assertThat(pairs.get(Bytes.wrap(big.clone()))).isEqualTo("b".getBytes());
        pairs.put(field(1), "short".getBytes());
        assertThat(pairs.keySet()).containsExactly(field(1), Bytes.wrap(new byte[0]), Bytes.wrap(big));
        assertThat(pairs.remove(Bytes.wrap(new byte[0]))).isEmpty();
        assertThat(pairs.keySet()).containsExactly(field(1), Bytes.wrap(big));
        assertThat(pairs.containsKey("f1")).as("only Bytes are fields").isFalse();

        Iterator<Map.Entry<Bytes, byte[]>> walk = pairs.entrySet().iterator();
        walk.next();
        pairs.put(field(3), "c".getBytes());
        assertThatThrownBy(walk::next).isInstanceOf(ConcurrentModificationException.class);
    }
}
