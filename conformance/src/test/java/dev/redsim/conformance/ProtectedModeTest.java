package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisServerTarget;
import dev.redsim.conformance.target.Targets;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

import java.io.File;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Protected mode on a server bound to every interface, simulator and redis-server side by side: with no password
 * for the default user, a client from a non-loopback address gets -DENIED and is closed, loopback clients are
 * served; a password, or protected-mode no, lets the outside in (then AUTH decides). The outside is this host's own
 * non-loopback address.
 */
class ProtectedModeTest {

    @Test
    void onlyLoopbackClientsAreServedWithoutAPassword() throws Exception {
        String outside = externalAddress().orElseThrow(() ->
                new TestAbortedException("this host has no non-loopback IPv4 address to connect from"));
        if (!RedisServerTarget.available() && !Targets.realRedisRequired()) {
            throw new TestAbortedException("redis-server is not on PATH");
        }
        List<String> simulator;
        try (RedisSimulator sim = RedisSimulator.builder().bind("0.0.0.0").start()) {
            simulator = session(outside, sim.port());
        }
        List<String> redis;
        int port = freePort();
        File dir = Files.createTempDirectory("redsim-protected-").toFile();
        Process server = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "0.0.0.0",
                "--save", "", "--appendonly", "no", "--dir", dir.getPath())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            for (int i = 0; i < 10_000 && !listening(port); i++) {
                Thread.onSpinWait(); // until redis-server listens
            }
            redis = session(outside, port);
        } finally {
            server.destroy();
        }
        assertThat(simulator).isEqualTo(redis);
        assertThat(simulator.get(0)).startsWith("DENIED Redis is running in protected mode");
    }

    private static List<String> session(String outside, int port) {
        List<String> seen = new ArrayList<>();
        try (RespClient external = new RespClient(outside, port)) {
            seen.add(external.read().text());
            seen.add("closed: " + external.closedByServer());
        }
        try (RespClient local = new RespClient("127.0.0.1", port)) {
            seen.add(local.call("PING").text());
            seen.add(local.call("CONFIG", "SET", "requirepass", "s3cret").text());
            try (RespClient external = new RespClient(outside, port)) {
                seen.add(external.call("PING").text());
                seen.add(external.call("AUTH", "s3cret").text());
            }
            seen.add(local.call("AUTH", "s3cret").text());
            seen.add(local.call("CONFIG", "SET", "requirepass", "", "protected-mode", "no").text());
            try (RespClient external = new RespClient(outside, port)) {
                seen.add(external.call("PING").text());
            }
        }
        return seen;
    }

    private static Optional<String> externalAddress() throws SocketException {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                if (address instanceof Inet4Address && !address.isLoopbackAddress()) {
                    return Optional.of(address.getHostAddress());
                }
            }
        }
        return Optional.empty();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
