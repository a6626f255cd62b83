package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limits Redis puts on clients, on a fresh simulator and a fresh redis-server each (they change server-wide
 * settings and close clients, so they do not run on the shared targets): maxclients, the idle timeout, and the
 * output buffer limit that drops a subscriber which stops reading. Waits are for the server's own events (a
 * connection closed by it), bounded by the socket timeout; the simulator's clock is moved where Redis's runs.
 */
class ClientLimitsTest {

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void maxclientsRefusesTheConnectionOverTheLimit(String name) {
        try (RedisTarget target = start(name); RespClient admin = client(target)) {
            assertThat(admin.call("CONFIG", "SET", "maxclients", "2").text()).isEqualTo("OK");
            try (RespClient second = client(target); RespClient third = client(target)) {
                assertThat(second.call("PING").text()).isEqualTo("PONG");
                // written at accept, before any command
                assertThat(third.read().text()).isEqualTo("ERR max number of clients reached");
                assertThat(third.closedByServer()).isTrue();
            }
            assertThat(info(admin, "rejected_connections")).isEqualTo("1");
            try (RespClient again = client(target)) { // a place is free again
                assertThat(again.call("PING").text()).isEqualTo("PONG");
            }
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void timeoutClosesIdleClientsButNotSubscribersOrBlockedClients(String name) {
        try (RedisTarget target = start(name)) {
            RespClient admin = client(target);
            RespClient idle = client(target);
            RespClient subscriber = client(target);
            RespClient blocked = client(target);
            subscriber.call("SUBSCRIBE", "news");
            blocked.send(bytes("BLPOP", "nothing", "0"));
            assertThat(admin.call("CONFIG", "SET", "timeout", "1").text()).isEqualTo("OK");
            if (target instanceof SimulatorTarget simulator) {
                simulator.simulator().advanceTime(Duration.ofSeconds(3)); // Redis's clock simply runs on
            }
            assertThat(idle.closedByServer()).isTrue(); // the server's cron closed it: every client was checked
            assertThat(admin.closedByServer()).isTrue(); // idle too, while we waited
            try (RespClient fresh = client(target)) {
                assertThat(fresh.call("PUBLISH", "news", "still here").asLong()).isEqualTo(1);
                assertThat(subscriber.read().children().get(2).text()).isEqualTo("still here");
                assertThat(fresh.call("LPUSH", "nothing", "x").asLong()).isEqualTo(1);
                assertThat(blocked.read().children().get(1).text()).isEqualTo("x");
                fresh.call("CONFIG", "SET", "timeout", "0");
            }
            subscriber.close();
            blocked.close();
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void aSubscriberThatStopsReadingIsDroppedAtThePubsubHardLimit(String name) {
        try (RedisTarget target = start(name); RespClient publisher = client(target);
             RespClient subscriber = client(target)) {
            assertThat(publisher.call("CONFIG", "SET", "client-output-buffer-limit", "pubsub 4mb 0 0").text())
                    .isEqualTo("OK");
            subscriber.call("SUBSCRIBE", "firehose");
            byte[] message = new byte[256 * 1024];
            Arrays.fill(message, (byte) 'm');
            // 64 MB: more than the loopback socket buffers hold, so the rest waits in the server, over 4 MB
            for (int i = 0; i < 256; i++) {
                publisher.call("PUBLISH".getBytes(StandardCharsets.US_ASCII),
                        "firehose".getBytes(StandardCharsets.US_ASCII), message);
            }
            assertThat(publisher.call("PUBSUB", "NUMSUB", "firehose").children().get(1).asLong()).isZero();
            while (!subscriber.closedByServer()) {
                // what the kernel had taken before the close still arrives; then the end of the stream
            }
            assertThat(publisher.call("PING").text()).isEqualTo("PONG");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void anUnauthenticatedClientFloodingCommandsIsClosedWithoutItsReplies(String name) {
        try (RedisTarget target = start(name); RespClient admin = client(target)) {
            admin.call("CONFIG", "SET", "requirepass", "s3cret");
            try (RespClient few = client(target)) { // a few refusals are answered
                few.sendRaw("X\n".repeat(10).getBytes(StandardCharsets.US_ASCII));
                for (int i = 0; i < 10; i++) {
                    assertThat(few.read().text()).isEqualTo("ERR unknown command 'X', with args beginning with: ");
                }
            }
            try (RespClient flood = client(target)) { // 34 KB of refusals in one read: closed, none sent
                flood.sendRaw("X\n".repeat(1000).getBytes(StandardCharsets.US_ASCII));
                assertThat(flood.closedByServer()).isTrue();
            }
            assertThat(admin.call("PING").text()).isEqualTo("PONG"); // authenticated before: untouched
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void aQueryBufferOverTheLimitClosesTheClient(String name) {
        try (RedisTarget target = start(name); RespClient admin = client(target)) {
            admin.call("CONFIG", "SET", "client-query-buffer-limit", "1mb");
            try (RespClient big = client(target)) { // 1.5 MB of a 3 MB value: more than the limit, not yet a command
                big.sendRaw("*3\r\n$3\r\nSET\r\n$3\r\nbig\r\n$3000000\r\n".getBytes(StandardCharsets.US_ASCII));
                try {
                    big.sendRaw(new byte[1_500_000]);
                } catch (java.io.UncheckedIOException closedWhileSending) {
                    // the server may close the connection before it has taken everything: that is the point
                }
                assertThat(big.closedByServer()).isTrue();
            }
            try (RespClient small = client(target)) { // under the limit, the same value in one piece is fine
                assertThat(small.call("SET".getBytes(StandardCharsets.US_ASCII), "k".getBytes(StandardCharsets.US_ASCII),
                        new byte[900_000]).text()).isEqualTo("OK");
            }
            assertThat(admin.call("EXISTS", "big").asLong()).isZero();
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void aBlockedClientsWaitingCommandsCountAgainstTheQueryBufferLimit(String name) {
        try (RedisTarget target = start(name); RespClient admin = client(target)) {
            admin.call("CONFIG", "SET", "client-query-buffer-limit", "1mb");
            try (RespClient blocked = client(target)) {
                blocked.send("BLPOP".getBytes(StandardCharsets.US_ASCII), "nothing".getBytes(StandardCharsets.US_ASCII),
                        "0".getBytes(StandardCharsets.US_ASCII));
                // whole commands, each small, that wait behind the BLPOP: 1.6 MB of them in all
                byte[] value = new byte[16_000];
                try {
                    for (int i = 0; i < 100; i++) {
                        blocked.send("SET".getBytes(StandardCharsets.US_ASCII),
                                ("waiting:" + i).getBytes(StandardCharsets.US_ASCII), value);
                    }
                } catch (java.io.UncheckedIOException closedWhileSending) {
                    // the server may close the connection before it has taken everything: that is the point
                }
                assertThat(blocked.closedByServer()).isTrue();
            }
            assertThat(admin.call("EXISTS", "waiting:0").asLong()).isZero(); // none of them ran
            assertThat(admin.call("PING").text()).isEqualTo("PONG");
        }
    }

    private static RedisTarget start(String name) {
        return name.equals("simulator") ? new SimulatorTarget() : Targets.reference();
    }

    private static RespClient client(RedisTarget target) {
        return new RespClient(target.host(), target.port());
    }

    private static String info(RespClient client, String field) {
        for (String line : client.call("INFO", "stats").text().split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1);
            }
        }
        throw new AssertionError("no " + field + " in INFO");
    }

    private static byte[][] bytes(String... args) {
        byte[][] result = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            result[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return result;
    }
}
