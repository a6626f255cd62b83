package dev.redsim.simulator.util;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ScanDict against a HashMap model under random operations, and its scan guarantee: every key present for the
 * whole scan is returned, while the table grows and shrinks by incremental rehashing between the calls, and a call
 * costs what it returns (no sorting, no snapshot).
 */
class ScanDictTest {

    @Test
    void behavesAsAMapUnderRandomOperations() {
        Random random = new Random(42);
        ScanDict<Integer, Integer> dict = new ScanDict<>();
        Map<Integer, Integer> model = new HashMap<>();
        for (int step = 0; step < 200_000; step++) {
            int key = random.nextInt(step < 100_000 ? 5_000 : 300); // later, fewer keys: the table shrinks
            switch (random.nextInt(3)) {
                case 0 -> assertThat(dict.put(key, step)).isEqualTo(model.put(key, step));
                case 1 -> assertThat(dict.remove(key)).isEqualTo(model.remove(key));
                default -> assertThat(dict.get(key)).isEqualTo(model.get(key));
            }
            assertThat(dict.size()).isEqualTo(model.size());
        }
        Map<Integer, Integer> seen = new HashMap<>();
        dict.forEach(seen::put);
        assertThat(seen).isEqualTo(model);
        assertThat(dict.bucketCounts()[0]).as("shrunk after most keys went").isLessThanOrEqualTo(4096);
    }

    @Test
    void aScanReturnsEveryKeyPresentThroughoutWhileTheTableGrowsAndShrinks() {
        Random random = new Random(7);
        for (int round = 0; round < 50; round++) {
            ScanDict<Integer, Integer> dict = new ScanDict<>();
            Set<Integer> stable = new HashSet<>();
            for (int i = 0; i < 1_000; i++) {
                dict.put(i, i);
                stable.add(i);
            }
            Set<Integer> returned = new HashSet<>();
            java.util.List<Integer> extras = new java.util.ArrayList<>();
            long cursor = 0;
            int calls = 0;
            int next = 1_000_000;
            boolean growing = true;
            do {
                cursor = dict.scan(cursor, (k, v) -> returned.add(k));
                calls++;
                // between calls, other keys come and go in waves: the table grows 16-fold and shrinks back
                if (extras.size() >= 15_000) {
                    growing = false;
                } else if (extras.isEmpty()) {
                    growing = true;
                }
                for (int i = 0; i < 1 + random.nextInt(400); i++) {
                    if (growing) {
                        dict.put(next, 0);
                        extras.add(next++);
                    } else if (!extras.isEmpty()) {
                        dict.remove(extras.remove(extras.size() - 1));
                    }
                }
            } while (cursor != 0 && calls < 1_000_000);
            assertThat(cursor).as("the scan ends").isZero();
            assertThat(returned).as("round " + round).containsAll(stable);
        }
    }

    @Test
    void aScanCallCostsTheBucketItVisitsNotTheWholeTable() {
        ScanDict<Integer, Integer> dict = new ScanDict<>();
        for (int i = 0; i < 1_000_000; i++) {
            dict.put(i, i);
        }
        int[] visited = new int[1];
        long cursor = dict.scan(0, (k, v) -> visited[0]++);
        assertThat(visited[0]).as("one bucket's chain").isLessThan(20);
        assertThat(cursor).isNotZero();
        int total = 0;
        cursor = 0;
        Set<Integer> all = new HashSet<>();
        do {
            cursor = dict.scan(cursor, (k, v) -> all.add(k));
            total++;
        } while (cursor != 0);
        assertThat(all).hasSize(1_000_000);
        assertThat(total).as("one call per bucket").isEqualTo(dict.bucketCounts()[0]);
    }

    @Test
    void randomKeysComeFromTheDictAndReachEveryKey() {
        ScanDict<Integer, Integer> dict = new ScanDict<>();
        for (int i = 0; i < 50; i++) {
            dict.put(i, i);
        }
        for (int i = 10; i < 50; i++) {
            dict.remove(i); // leaves the table mid-shrink
        }
        Random random = new Random(1);
        Set<Integer> drawn = new HashSet<>();
        for (int i = 0; i < 2_000; i++) {
            drawn.add(dict.randomKey(random));
        }
        assertThat(drawn).containsExactlyInAnyOrderElementsOf(dict.keys());
        dict.clear();
        assertThat(dict.randomKey(random)).isNull();
    }

    @Test
    void aWalkSeesEveryEntryOnceAndMayLookKeysUpWhileTheTableRehashes() {
        ScanDict<Integer, Integer> dict = new ScanDict<>();
        // the 1,025th entry starts a rehash to 2,048 buckets; the 75 after it move 75 of the old 1,024 buckets
        for (int i = 0; i < 1_100; i++) {
            dict.put(i, i);
        }
        assertThat(dict.bucketCounts()[1]).as("mid-rehash").isPositive();
        java.util.List<Integer> walked = new java.util.ArrayList<>();
        for (Map.Entry<Integer, Integer> e : dict.entrySet()) {
            assertThat(dict.get(e.getKey())).isEqualTo(e.getValue()); // a lookup moves nothing
            walked.add(e.getKey());
        }
        assertThat(walked).hasSize(1_100).doesNotHaveDuplicates();
        assertThat(dict.bucketCounts()[1]).as("still mid-rehash: reads did not move buckets").isPositive();
        Map<Integer, Integer> model = new HashMap<>();
        for (int i = 0; i < 1_100; i++) {
            model.put(i, i);
        }
        assertThat(dict).isEqualTo(model);
    }

    @Test
    void aWriteDuringAWalkFailsTheWalk() {
        ScanDict<Integer, Integer> dict = new ScanDict<>();
        for (int i = 0; i < 100; i++) {
            dict.put(i, i);
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> {
            for (Integer key : dict.keySet()) {
                dict.put(key + 1_000, 0);
            }
        }).isInstanceOf(java.util.ConcurrentModificationException.class);
    }

    @Test
    void aCountedScanStopsAtCountOrAtTenTimesCountBuckets() {
        ScanDict<Integer, Integer> dict = new ScanDict<>();
        for (int i = 0; i < 100_000; i++) {
            dict.put(i, i);
        }
        for (int i = 100; i < 100_000; i++) {
            dict.remove(i); // the table shrinks back incrementally; until then most buckets are empty
        }
        int[] got = new int[1];
        long cursor = 0;
        int calls = 0;
        do {
            got[0] = 0;
            cursor = dict.scan(cursor, 10, (k, v) -> got[0]++);
            calls++;
            assertThat(got[0]).as("about COUNT per call (a bucket's chain may add a few)").isLessThan(30);
        } while (cursor != 0);
        assertThat(calls).isGreaterThanOrEqualTo(10);
    }
}
