package dev.redsim.simulator.command;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keys found from Redis's key specs. The expected answers are redis-server 7.0.15's to COMMAND GETKEYS for the
 * same calls (the commands need not be implemented by the simulator: the specs are Redis's).
 */
class KeySearchTest {
    private static final CommandCatalog CATALOG = CommandCatalog.redis70();

    private static List<String> keys(String... call) {
        byte[][] args = new byte[call.length][];
        for (int i = 0; i < call.length; i++) {
            args[i] = call[i].getBytes(StandardCharsets.UTF_8);
        }
        List<KeyRef> found = KeySearch.find(CATALOG.describe(call[0]).keySpecs(), args);
        return found == null ? null : found.stream().map(k -> call[k.index()]).toList();
    }

    @Test
    void rangesFromAnIndex() {
        assertThat(keys("get", "a")).containsExactly("a");
        assertThat(keys("exists", "a", "b", "c")).containsExactly("a", "b", "c");
        assertThat(keys("mset", "a", "1", "b")).containsExactly("a", "b");
        assertThat(keys("blpop", "a", "b", "0")).containsExactly("a", "b");
        assertThat(keys("lmove", "a", "b", "LEFT", "RIGHT")).containsExactly("a", "b");
    }

    @Test
    void countsFromAKeynumArgument() {
        assertThat(keys("lmpop", "2", "a", "b", "left")).containsExactly("a", "b");
        assertThat(keys("lmpop", "3", "a", "b", "left")).containsExactly("a", "b", "left");
        assertThat(keys("zunionstore", "d", "2", "a", "b")).containsExactly("d", "a", "b");
        assertThat(keys("eval", "s", "1", "a", "x")).containsExactly("a");
    }

    @Test
    void countsThatDoNotFitInvalidateTheWholeCall() {
        assertThat(keys("lmpop", "x", "a", "b", "left")).isNull();
        assertThat(keys("lmpop", "0", "a", "left")).isNull();
        assertThat(keys("lmpop", "-1", "a", "left")).isNull();
        assertThat(keys("sintercard", "3", "a", "b")).isNull();
        assertThat(keys("zunionstore", "d", "3", "a", "b")).isNull();
        assertThat(keys("eval", "s", "0")).isNull();
    }

    @Test
    void keysAfterAKeyword() {
        assertThat(keys("xread", "streams", "a", "b", "0", "0")).containsExactly("a", "b");
        assertThat(keys("xread", "streams", "a", "b", "c")).containsExactly("a");
        assertThat(keys("xread", "count", "1", "a", "b")).isEmpty(); // no STREAMS: no keys (Redis: "Invalid arguments")
        assertThat(keys("georadius", "k", "0", "0", "1", "m", "store", "a", "storedist", "b"))
                .containsExactly("k", "a", "b");
    }

    @Test
    void keysCarryTheFlagsOfTheirSpec() {
        byte[][] args = {"zunionstore".getBytes(), "d".getBytes(), "1".getBytes(), "a".getBytes()};
        assertThat(KeySearch.find(CATALOG.describe("zunionstore").keySpecs(), args)).containsExactly(
                new KeyRef(1, List.of("OW", "update")), new KeyRef(3, List.of("RO", "access")));
    }
}
