package dev.redsim.simulator.commands;

import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.EncodingLimits;
import dev.redsim.simulator.keyspace.SetValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Plain sets as inputs of ZUNION/ZINTER/ZDIFF/ZINTERCARD/ZUNIONSTORE (members score 1). The sets are placed in
 * the keyspace directly because SADD belongs to another family; the expected replies were recorded on
 * redis-server 7.0.15 with the same data.
 */
class SortedSetPlainSetInputTest {
    private static RedisSimulator simulator;
    private static RawRespSocket socket;

    @BeforeAll
    static void start() throws IOException {
        simulator = RedisSimulator.start();
        socket = new RawRespSocket(simulator.host(), simulator.port());
        simulator.onEngine(() -> {
            simulator.engine().database(0).put(Bytes.of("s1"), set("a", "b", "c"));
            simulator.engine().database(0).put(Bytes.of("s2"), set("b", "c", "d"));
            return null;
        });
        assertThat(socket.call("ZADD", "z", "5", "a", "7", "c")).isEqualTo(":2\r\n");
    }

    private static SetValue set(String... members) {
        SetValue set = new SetValue();
        set.convertToHashtable();
        for (String m : members) {
            set.add(Bytes.of(m).bytes(), EncodingLimits.DEFAULTS);
        }
        return set;
    }

    @AfterAll
    static void stop() throws IOException {
        socket.close();
        simulator.close();
    }

    @Test
    void plainSetsCountAsScoreOne() throws IOException {
        assertThat(socket.call("ZUNION", "3", "s1", "s2", "z", "WITHSCORES"))
                .isEqualTo("*8\r\n$1\r\nd\r\n$1\r\n1\r\n$1\r\nb\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\n6\r\n$1\r\nc\r\n$1\r\n9\r\n");
        assertThat(socket.call("ZINTER", "2", "s1", "z", "WEIGHTS", "2", "3", "WITHSCORES"))
                .isEqualTo("*4\r\n$1\r\na\r\n$2\r\n17\r\n$1\r\nc\r\n$2\r\n23\r\n");
        assertThat(socket.call("ZDIFF", "2", "s1", "z", "WITHSCORES")).isEqualTo("*2\r\n$1\r\nb\r\n$1\r\n1\r\n");
        assertThat(socket.call("ZINTERCARD", "3", "s1", "s2", "z")).isEqualTo(":1\r\n");
        assertThat(socket.call("ZINTER", "2", "z", "s1", "AGGREGATE", "MAX", "WITHSCORES"))
                .isEqualTo("*4\r\n$1\r\na\r\n$1\r\n5\r\n$1\r\nc\r\n$1\r\n7\r\n");
        assertThat(socket.call("ZUNIONSTORE", "d", "2", "s1", "s2")).isEqualTo(":4\r\n");
        assertThat(socket.call("ZRANGE", "d", "0", "-1", "WITHSCORES"))
                .isEqualTo("*8\r\n$1\r\na\r\n$1\r\n1\r\n$1\r\nd\r\n$1\r\n1\r\n$1\r\nb\r\n$1\r\n2\r\n$1\r\nc\r\n$1\r\n2\r\n");
    }
}
