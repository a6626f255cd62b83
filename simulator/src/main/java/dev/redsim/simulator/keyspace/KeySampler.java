package dev.redsim.simulator.keyspace;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random picks among the keys of a map in O(1) each, for eviction's sampling of the keys with a TTL (Redis's
 * dictGetSomeKeys on the expires dict; the keyspace itself is a ScanDict, which picks from its buckets); a Java
 * HashMap has no random access. Keys are appended when they enter the map and left in place when they leave:
 * a pick checks the map and skips keys no longer in it, and the array is rebuilt from the map once more than
 * half of it is stale, so picks stay O(1) on average and removal costs nothing. A key that left and came back
 * may sit in the array twice until the next rebuild, which only weighs it a little more.
 */
final class KeySampler {
    private Bytes[] slots = new Bytes[16];
    private int size;

    /** The key has just entered the map. */
    void added(Bytes key, Map<Bytes, ?> map) {
        if (size == slots.length && size > 2 * map.size() + 16) {
            rebuild(map.keySet()); // the map holds the new key already: the rebuild took it
            return;
        }
        if (size == slots.length) {
            slots = java.util.Arrays.copyOf(slots, slots.length * 2);
        }
        slots[size++] = key;
    }

    private void rebuild(Collection<Bytes> keys) {
        Bytes[] fresh = new Bytes[Math.max(16, Integer.highestOneBit(Math.max(1, keys.size())) << 1)];
        int n = 0;
        for (Bytes key : keys) {
            fresh[n++] = key;
        }
        slots = fresh;
        size = n;
    }

    /**
     * Up to {@code count} keys of the map: all of them when it holds no more than that (as dictGetSomeKeys walks a
     * small table whole), else random picks (which may repeat, as Redis's do).
     */
    List<Bytes> sample(int count, Map<Bytes, ?> map, Random random) {
        List<Bytes> picked = new ArrayList<>(Math.min(count, map.size()));
        if (map.isEmpty()) {
            return picked;
        }
        if (map.size() <= count) {
            picked.addAll(map.keySet());
            return picked;
        }
        if (size > 2 * map.size() + 16) {
            rebuild(map.keySet());
        }
        for (int round = 0; round < 2 && picked.isEmpty(); round++) {
            if (round == 1) {
                rebuild(map.keySet()); // unlucky with stale slots: every slot is live after this
            }
            for (int tries = 0; picked.size() < count && tries < count * 16; tries++) {
                Bytes key = slots[random.nextInt(size)];
                if (map.containsKey(key)) {
                    picked.add(key);
                }
            }
        }
        return picked;
    }

    /** One random key of the map, or null when it is empty. */
    Bytes pick(Map<Bytes, ?> map, Random random) {
        List<Bytes> one = sample(1, map, random);
        return one.isEmpty() ? null : one.get(0);
    }

    void clear() {
        slots = new Bytes[16];
        size = 0;
    }
}
