package dev.redsim.simulator.keyspace;

import dev.redsim.simulator.util.ScanDict;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A ScanDict that keeps Bytes keys as their arrays alone (the keyspace's and a hashtable hash's form) answers as a
 * map of Bytes: lookups by equal keys made elsewhere, keys handed back equal to the ones stored, every place that
 * hands keys out (walks, scans, random picks), and entries whose setValue writes through.
 */
class BytesKeyFormTest {

    private static Bytes key(int i) {
        return Bytes.of("key:" + i);
    }

    @Test
    void behavesAsAMapOfBytesUnderRandomOperations() {
        Random random = new Random(7);
        ScanDict<Bytes, Integer> dict = new ScanDict<>(Bytes.AS_ARRAY);
        Map<Bytes, Integer> model = new HashMap<>();
        for (int step = 0; step < 100_000; step++) {
            Bytes key = key(random.nextInt(step < 50_000 ? 3_000 : 200));
            switch (random.nextInt(3)) {
                case 0 -> assertThat(dict.put(key, step)).isEqualTo(model.put(key, step));
                case 1 -> assertThat(dict.remove(key(Integer.parseInt(key.toString().substring(4)))))
                        .isEqualTo(model.remove(key));
                default -> assertThat(dict.get(key)).isEqualTo(model.get(key));
            }
        }
        assertThat(dict).isEqualTo(model);
        Map<Bytes, Integer> walked = new HashMap<>();
        dict.forEach(walked::put);
        assertThat(walked).isEqualTo(model);
        Set<Bytes> scanned = new HashSet<>();
        long cursor = 0;
        do {
            cursor = dict.scan(cursor, 10, (k, v) -> scanned.add(k));
        } while (cursor != 0);
        assertThat(scanned).isEqualTo(model.keySet());
        assertThat(model).containsKey(dict.randomKey(random));
        assertThat(dict.containsKey("key:1")).as("a key of another type is never held").isFalse();
    }

    @Test
    void keepsTheKeysArrayNotItsWrapperAndWritesEntriesThrough() {
        ScanDict<Bytes, Integer> dict = new ScanDict<>(Bytes.AS_ARRAY);
        Bytes stored = Bytes.of("k");
        dict.put(stored, 1);
        Map.Entry<Bytes, Integer> entry = dict.entrySet().iterator().next();
        assertThat(entry.getKey()).isEqualTo(stored);
        assertThat(entry.getKey().bytes()).as("the array itself, shared, not copied").isSameAs(stored.bytes());
        entry.setValue(2);
        assertThat(dict.get(Bytes.of("k"))).isEqualTo(2);
    }
}
