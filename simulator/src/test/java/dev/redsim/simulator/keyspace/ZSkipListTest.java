package dev.redsim.simulator.keyspace;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The skiplist against a sorted model while its level grows from 1 (the head's links and the scratch arrays grow
 * with it) and shrinks again: ranks, entries by rank and the links both ways stay right.
 */
class ZSkipListTest {

    @Test
    void ranksAndLinksMatchASortedModelAsLevelsGrowAndShrink() {
        Random random = new Random(3);
        ZSkipList list = new ZSkipList();
        TreeMap<Bytes, Double> model = new TreeMap<>(); // all scores equal below: ordered by member bytes
        for (int step = 0; step < 20_000; step++) {
            Bytes member = Bytes.of("m" + random.nextInt(step < 10_000 ? 5_000 : 50));
            if (model.containsKey(member)) {
                assertThat(list.delete(1.0, member)).isTrue();
                model.remove(member);
            } else {
                list.insert(1.0, member);
                model.put(member, 1.0);
            }
            if (step % 1000 == 999 || step > 19_900) {
                List<Bytes> expected = new ArrayList<>(model.keySet());
                assertThat(list.length()).isEqualTo(expected.size());
                List<Bytes> forward = new ArrayList<>();
                for (ZSkipList.Node n = list.first(); n != null; n = n.next()) {
                    forward.add(n.member());
                }
                assertThat(forward).isEqualTo(expected);
                List<Bytes> backward = new ArrayList<>();
                for (ZSkipList.Node n = list.last(); n != null; n = n.previous()) {
                    backward.add(0, n.member());
                }
                assertThat(backward).isEqualTo(expected);
                for (int r = 0; r < expected.size(); r += Math.max(1, expected.size() / 50)) {
                    assertThat(list.byRank(r + 1).member()).isEqualTo(expected.get(r));
                    assertThat(list.rank(1.0, expected.get(r))).isEqualTo(r + 1);
                }
            }
        }
    }
}
