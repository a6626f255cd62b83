package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that goes away in the middle of something, on a fresh simulator and a fresh redis-server each: its
 * transaction applies whole or not at all, and what it was waiting for stays for others. Each case waits until the
 * server no longer lists the client (bounded), so what it checks is the server's final word.
 */
class ClientGoneMidCommandTest {
    /** MULTI and two queued SETs, as one client writes them before its EXEC. */
    private static final String TRANSACTION = "*1\r\n$5\r\nMULTI\r\n*3\r\n$3\r\nSET\r\n$2\r\nk1\r\n$1\r\na\r\n"
            + "*3\r\n$3\r\nSET\r\n$2\r\nk2\r\n$1\r\nb\r\n";

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void aTransactionCutOffBeforeItsExecAppliesNothing(String name) {
        try (RedisTarget target = start(name); RespClient checker = client(target)) {
            RespClient leaving = client(target);
            long id = leaving.call("CLIENT", "ID").asLong();
            leaving.sendRaw(bytes(TRANSACTION + "*1\r\n$4\r\nEX"));
            leaving.close();
            awaitGone(checker, id);
            assertThat(checker.call("EXISTS", "k1", "k2").asLong()).isZero();
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void aTransactionSentWholeAppliesWholeThoughItsClientLeavesWithoutReading(String name) {
        try (RedisTarget target = start(name); RespClient checker = client(target)) {
            RespClient leaving = client(target);
            long id = leaving.call("CLIENT", "ID").asLong();
            leaving.sendRaw(bytes(TRANSACTION + "*1\r\n$4\r\nEXEC\r\n"));
            leaving.close();
            awaitGone(checker, id);
            assertThat(checker.call("MGET", "k1", "k2").children()).extracting(v -> v.text()).containsExactly("a", "b");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void aClientKilledInsideMultiLeavesNothingBehind(String name) {
        try (RedisTarget target = start(name); RespClient checker = client(target); RespClient killed = client(target)) {
            long id = killed.call("CLIENT", "ID").asLong();
            killed.call("MULTI");
            killed.call("SET", "k1", "a");
            killed.call("INCR", "counter");
            assertThat(checker.call("CLIENT", "KILL", "ID", Long.toString(id)).asLong()).isEqualTo(1);
            assertThat(killed.closedByServer()).isTrue();
            assertThat(checker.call("EXISTS", "k1", "counter").asLong()).isZero();
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void aBlockedClientKilledTakesNothingWithIt(String name) {
        try (RedisTarget target = start(name); RespClient checker = client(target); RespClient killed = client(target)) {
            long id = killed.call("CLIENT", "ID").asLong();
            killed.send(new byte[][] {bytes("BLMOVE"), bytes("src"), bytes("dst"), bytes("LEFT"), bytes("RIGHT"),
                bytes("0")});
            awaitBlocked(checker);
            assertThat(checker.call("CLIENT", "KILL", "ID", Long.toString(id)).asLong()).isEqualTo(1);
            assertThat(checker.call("LPUSH", "src", "x").asLong()).isEqualTo(1);
            assertThat(checker.call("LRANGE", "src", "0", "-1").children()).extracting(v -> v.text())
                    .containsExactly("x");
            assertThat(checker.call("EXISTS", "dst").asLong()).isZero();
        }
    }

    /** Until CLIENT LIST no longer shows the client: the server has closed it and done all it will do for it. */
    private static void awaitGone(RespClient checker, long id) {
        for (int i = 0; i < 10_000; i++) {
            if (!checker.call("CLIENT", "LIST", "ID", Long.toString(id)).text().contains("id=" + id + " ")) {
                return;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("the server still lists client " + id);
    }

    private static void awaitBlocked(RespClient checker) {
        for (int i = 0; i < 10_000; i++) {
            if (checker.call("INFO", "clients").text().contains("blocked_clients:1\r\n")) {
                return;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("the client never blocked");
    }

    private static RedisTarget start(String name) {
        return name.equals("simulator") ? new SimulatorTarget() : Targets.reference();
    }

    private static RespClient client(RedisTarget target) {
        return new RespClient(target.host(), target.port());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
