package dev.redsim.simulator.keyspace;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** The order-statistic skiplist against a plain TreeSet model, over seeded random operation sequences. */
class SortedSetValueTest {
    private record Entry(double score, Bytes member) implements Comparable<Entry> {
        @Override
        public int compareTo(Entry o) {
            int c = Double.compare(score, o.score);
            return c != 0 ? c : member.compareTo(o.member);
        }
    }

    @Test
    void ranksRangesAndWalksMatchAModel() {
        for (long seed = 1; seed <= 20; seed++) {
            Random random = new Random(seed);
            SortedSetValue zset = new SortedSetValue();
            zset.updateEncoding(EncodingLimits.DEFAULTS, new byte[100]); // skiplist: keeps -0 as is
            Map<Bytes, Double> scores = new HashMap<>();
            TreeSet<Entry> model = new TreeSet<>();
            for (int step = 0; step < 3000; step++) {
                Bytes member = Bytes.of("m" + random.nextInt(300));
                int op = random.nextInt(10);
                if (op < 6) {
                    double score = random.nextInt(50) / 2.0;
                    Double old = scores.put(member, score);
                    if (old != null) {
                        model.remove(new Entry(old, member));
                    }
                    model.add(new Entry(score, member));
                    assertThat(zset.put(member, score)).isEqualTo(old == null);
                } else if (op < 9) {
                    Double old = scores.remove(member);
                    if (old != null) {
                        model.remove(new Entry(old, member));
                    }
                    assertThat(zset.remove(member)).isEqualTo(old != null);
                } else if (!model.isEmpty()) {
                    ZSkipList.Node first = zset.first();
                    zset.remove(first);
                    Entry e = model.pollFirst();
                    scores.remove(e.member());
                    assertThat(first.member()).isEqualTo(e.member());
                }
                if (step % 100 == 0) {
                    check(zset, model, random);
                }
            }
            check(zset, model, random);
        }
    }

    private static void check(SortedSetValue zset, TreeSet<Entry> model, Random random) {
        List<Entry> order = new ArrayList<>(model);
        assertThat(zset.size()).isEqualTo(order.size());
        int i = 0;
        for (ZSkipList.Node n = zset.first(); n != null; n = n.next(), i++) {
            assertThat(n.member()).isEqualTo(order.get(i).member());
            assertThat(n.score()).isEqualTo(order.get(i).score());
        }
        assertThat(i).isEqualTo(order.size());
        i = order.size() - 1;
        for (ZSkipList.Node n = zset.last(); n != null; n = n.previous(), i--) {
            assertThat(n.member()).isEqualTo(order.get(i).member());
        }
        for (int r = 0; r < order.size(); r++) {
            assertThat(zset.byRank(r).member()).isEqualTo(order.get(r).member());
            assertThat(zset.rank(order.get(r).member())).isEqualTo(r);
        }
        assertThat(zset.byRank(order.size())).isNull();
        for (int k = 0; k < 20; k++) {
            double a = random.nextInt(60) / 2.0 - 2;
            double b = random.nextInt(60) / 2.0 - 2;
            ScoreRange range = new ScoreRange(a, b, random.nextBoolean(), random.nextBoolean());
            List<Entry> inRange = order.stream()
                    .filter(e -> range.aboveMin(e.score()) && range.belowMax(e.score())).toList();
            assertThat(zset.count(range)).isEqualTo(inRange.size());
            ZSkipList.Node first = zset.firstIn(range);
            ZSkipList.Node last = zset.lastIn(range);
            if (inRange.isEmpty()) {
                assertThat(first).isNull();
                assertThat(last).isNull();
            } else {
                assertThat(first.member()).isEqualTo(inRange.get(0).member());
                assertThat(last.member()).isEqualTo(inRange.get(inRange.size() - 1).member());
            }
        }
    }

    @Test
    void copyIsDeepAndKeepsTheEncoding() {
        SortedSetValue zset = new SortedSetValue();
        zset.put(Bytes.of("a"), 1);
        zset.put(Bytes.of("b"), 2);
        SortedSetValue copy = zset.copy();
        copy.put(Bytes.of("c"), 3);
        copy.remove(Bytes.of("a"));
        assertThat(zset.size()).isEqualTo(2);
        assertThat(zset.rank(Bytes.of("b"))).isEqualTo(1);
        assertThat(copy.rank(Bytes.of("c"))).isEqualTo(1);
        assertThat(copy.encoding()).isEqualTo("listpack");
    }

    @Test
    void lexRangesFollowRedisBounds() {
        SortedSetValue zset = new SortedSetValue();
        for (String m : new String[] {"a", "b", "c", "d"}) {
            zset.put(Bytes.of(m), 0);
        }
        assertThat(zset.count(LexRange.parse("-".getBytes(), "+".getBytes()))).isEqualTo(4);
        assertThat(zset.count(LexRange.parse("(a".getBytes(), "[c".getBytes()))).isEqualTo(2);
        assertThat(zset.count(LexRange.parse("+".getBytes(), "-".getBytes()))).isZero();
        assertThat(LexRange.parse("a".getBytes(), "+".getBytes())).isNull();
        assertThat(LexRange.parse("-x".getBytes(), "+".getBytes())).isNull();
    }

    /**
     * A listpack set's MEMORY USAGE comes from a running total of its entries' bytes: after every kind of change
     * (new member, new score, -0, removal by member and by node, copies, a stored result) it equals the bytes of a
     * listpack written out from the set's entries now.
     */
    @Test
    void aListpacksRunningSizeMatchesItsEntriesAfterEveryChange() {
        for (long seed = 1; seed <= 10; seed++) {
            Random random = new Random(seed);
            SortedSetValue zset = SortedSetValue.create(EncodingLimits.DEFAULTS, new byte[1]);
            for (int step = 0; step < 2000; step++) {
                Bytes member = Bytes.of(random.nextBoolean() ? "m" + random.nextInt(60)
                        : String.valueOf(random.nextInt(60) * 99_991 - 3_000_000)); // at most 120: stays a listpack
                int op = random.nextInt(10);
                if (op < 6) {
                    double[] scores = {0.0, -0.0, random.nextInt(1000), random.nextDouble(), -random.nextInt(100000) * 1.5};
                    zset.put(member, scores[random.nextInt(scores.length)]);
                } else if (op < 8) {
                    zset.remove(member);
                } else if (op == 8 && zset.first() != null) {
                    zset.remove(zset.first());
                } else {
                    zset = zset.copy();
                }
                assertThat(zset.isListpack()).isTrue();
                assertThat(zset.memoryUsage(5)).as("seed %d step %d", seed, step).isEqualTo(listpackWrittenOut(zset));
            }
            SortedSetValue result = SortedSetValue.forResult();
            for (ZSkipList.Node n = zset.first(); n != null; n = n.next()) {
                result.put(n.member(), n.score());
            }
            result.put(Bytes.of("negative zero"), -0.0);
            result.encodeAsResult(EncodingLimits.DEFAULTS);
            assertThat(result.isListpack()).isTrue();
            assertThat(result.memoryUsage(5)).isEqualTo(listpackWrittenOut(result));
        }
    }

    private static long listpackWrittenOut(SortedSetValue zset) {
        long bytes = 7;
        for (ZSkipList.Node n = zset.first(); n != null; n = n.next()) {
            bytes += MemoryLayout.listpackEntry(n.member().bytes()) + MemoryLayout.listpackEntry(
                    dev.redsim.simulator.protocol.DoubleFormat.reply(n.score()).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        return MemoryLayout.ROBJ + MemoryLayout.jemalloc(bytes);
    }
}
