package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HRANDFIELD, SRANDMEMBER and ZRANDMEMBER on hashtable / skiplist encodings (1,000 elements), on a fresh simulator
 * and a fresh redis-server each, through every case of Redis's count handling: one element, a negative count
 * (repeats allowed, the exact number of picks), a small positive count (distinct random picks), a count of a third of
 * the size or more (a shuffled copy) and a count over the size (everything). The picks are random on both servers,
 * so the replies are checked by their properties, not compared.
 */
class RandomSamplingOfBigCollectionsTest {
    private static final int SIZE = 1000;

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void everyCountCaseReturnsWhatRedisPromises(String name) {
        try (RedisTarget target = start(name); RespClient client = new RespClient(target.host(), target.port())) {
            Set<String> members = new HashSet<>();
            for (int i = 0; i < SIZE; i += 100) {
                List<String> hset = new ArrayList<>(List.of("HSET", "h"));
                List<String> sadd = new ArrayList<>(List.of("SADD", "s"));
                List<String> zadd = new ArrayList<>(List.of("ZADD", "z"));
                for (int j = i; j < i + 100; j++) {
                    String m = "m" + j;
                    members.add(m);
                    hset.addAll(List.of(m, "v" + j));
                    sadd.add(m);
                    zadd.addAll(List.of(Integer.toString(j), m));
                }
                client.call(hset.toArray(String[]::new));
                client.call(sadd.toArray(String[]::new));
                client.call(zadd.toArray(String[]::new));
            }
            assertThat(client.call("OBJECT", "ENCODING", "h").text()).isEqualTo("hashtable");
            assertThat(client.call("OBJECT", "ENCODING", "z").text()).isEqualTo("skiplist");
            assertThat(members).contains(client.call("HRANDFIELD", "h").text());
            for (String[] command : new String[][] {{"HRANDFIELD", "h"}, {"SRANDMEMBER", "s"}, {"ZRANDMEMBER", "z"}}) {
                for (int count : new int[] {1, 10, 200, 333, 334, 700, 999, 1000, 5000}) {
                    List<String> picked = texts(client.call(command[0], command[1], Integer.toString(count)));
                    assertThat(picked).as(command[0] + " " + count).hasSize(Math.min(count, SIZE))
                            .doesNotHaveDuplicates();
                    assertThat(members).containsAll(picked);
                }
                List<String> repeats = texts(client.call(command[0], command[1], "-3000"));
                assertThat(repeats).as(command[0] + " -3000").hasSize(3000);
                assertThat(members).containsAll(repeats);
            }
            // values and scores stay with their own fields and members
            for (String count : new String[] {"10", "500", "-50"}) {
                List<String> pairs = texts(client.call("HRANDFIELD", "h", count, "WITHVALUES"));
                List<String> scored = texts(client.call("ZRANDMEMBER", "z", count, "WITHSCORES"));
                for (int i = 0; i < pairs.size(); i += 2) {
                    assertThat(pairs.get(i + 1)).isEqualTo("v" + pairs.get(i).substring(1));
                    assertThat(scored.get(i + 1)).isEqualTo(scored.get(i).substring(1));
                }
            }
        }
    }

    private static List<String> texts(RespValue reply) {
        List<String> out = new ArrayList<>();
        for (RespValue v : reply.children()) {
            out.add(v.text());
        }
        return out;
    }

    private static RedisTarget start(String name) {
        return name.equals("simulator") ? new SimulatorTarget() : Targets.reference();
    }
}
