package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CONFIG SET port and bind take effect as in Redis, on a fresh simulator and a fresh redis-server each: the server
 * listens where it is told from the next connection on, keeps its connected clients, refuses a port or address it
 * cannot have with Redis's error and then listens where it did (and gives every parameter of the call its old value
 * back), and listens nowhere on port 0.
 */
class ConfigListenTest {
    private static final String PREFIX = "ERR CONFIG SET failed (possibly related to argument ";

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void aNewPortIsListenedOnAndTheOldOneClosed(String name) {
        try (RedisTarget target = start(name); RespClient admin = client(target.host(), target.port())) {
            int oldPort = target.port();
            int newPort = freePort();
            assertThat(admin.call("CONFIG", "SET", "port", Integer.toString(newPort)).text()).isEqualTo("OK");
            try (RespClient moved = client(target.host(), newPort)) {
                assertThat(moved.call("PING").text()).isEqualTo("PONG");
            }
            assertThat(accepts(target.host(), oldPort)).as("the old port").isFalse();
            assertThat(admin.call("CONFIG", "GET", "port").children().get(1).text()).isEqualTo(Integer.toString(newPort));
            assertThat(admin.call("INFO", "server").text()).contains("tcp_port:" + newPort + "\r\n");

            assertThat(admin.call("CONFIG", "SET", "port", "0").text()).isEqualTo("OK");
            assertThat(accepts(target.host(), newPort)).as("port 0 listens nowhere").isFalse();
            assertThat(admin.call("PING").text()).as("a connected client stays").isEqualTo("PONG");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void aPortInUseIsRefusedAndNothingChanges(String name) throws IOException {
        try (RedisTarget target = start(name); RespClient admin = client(target.host(), target.port());
             ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            String busy = Integer.toString(taken.getLocalPort());
            assertThat(admin.call("CONFIG", "SET", "maxmemory-samples", "7", "port", busy).text())
                    .isEqualTo(PREFIX + "'port') - Unable to listen on this port. Check server logs.");
            assertThat(admin.call("CONFIG", "GET", "maxmemory-samples").children().get(1).text())
                    .as("the call's other parameter").isEqualTo("5");
            assertThat(admin.call("CONFIG", "GET", "port").children().get(1).text())
                    .isEqualTo(Integer.toString(target.port()));
            assertThat(accepts(target.host(), target.port())).as("the old port").isTrue();
            assertThat(admin.call("CONFIG", "SET", "port", "70000").text())
                    .isEqualTo(PREFIX + "'port') - argument must be between 0 and 65535 inclusive");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void aNewBindIsListenedOnAndAnAddressThatCannotBeHadIsRefused(String name) {
        try (RedisTarget target = start(name); RespClient admin = client("127.0.0.1", target.port())) {
            int port = target.port();
            // 127.0.0.2 is loopback on Linux: reachable here, and not the address the server listened on
            assertThat(admin.call("CONFIG", "SET", "bind", "127.0.0.2").text()).isEqualTo("OK");
            assertThat(accepts("127.0.0.2", port)).isTrue();
            assertThat(accepts("127.0.0.1", port)).as("the old address").isFalse();

            // 198.51.100.77 (TEST-NET-2) is no address of this machine
            assertThat(admin.call("CONFIG", "SET", "bind", "198.51.100.77").text())
                    .isEqualTo(PREFIX + "'bind') - Failed to bind to specified addresses.");
            assertThat(accepts("127.0.0.2", port)).as("listening where it did").isTrue();
            assertThat(admin.call("CONFIG", "GET", "bind").children().get(1).text()).isEqualTo("127.0.0.2");

            // "-": an address that need not be had
            assertThat(admin.call("CONFIG", "SET", "bind", "-198.51.100.77 127.0.0.1").text()).isEqualTo("OK");
            assertThat(accepts("127.0.0.1", port)).isTrue();
            assertThat(admin.call("CONFIG", "SET", "bind", "a b c d e f g h i j k l m n o p q").text())
                    .isEqualTo(PREFIX + "'bind') - Too many bind addresses specified.");
        }
    }

    private static boolean accepts(String host, int port) {
        try (Socket ignored = new Socket(host, port)) {
            return true;
        } catch (IOException refused) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RedisTarget start(String name) {
        return name.equals("simulator") ? new SimulatorTarget() : Targets.reference();
    }

    private static RespClient client(String host, int port) {
        return new RespClient(host, port);
    }
}
