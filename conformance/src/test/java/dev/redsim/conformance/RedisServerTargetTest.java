package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisServerTarget;
import dev.redsim.conformance.target.Targets;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The redis-server a target starts never outlives it: not on close, not when its JVM is killed outright. */
class RedisServerTargetTest {
    /** Started in a child JVM: starts a redis-server target, prints its port, then waits to be killed. */
    public static void main(String[] args) throws Exception {
        RedisServerTarget target = RedisServerTarget.start();
        System.out.println("port " + target.port());
        System.out.flush();
        new java.util.concurrent.CountDownLatch(1).await();
    }

    @Test
    void closeStopsTheServer() throws Exception {
        requireRedis();
        RedisServerTarget target = RedisServerTarget.start();
        int port = target.port();
        try (RespClient client = new RespClient("127.0.0.1", port)) {
            assertThat(client.call("PING").text()).isEqualTo("PONG");
        }
        target.close();
        assertThat(listening(port)).isFalse();
    }

    /**
     * A server started with --requirepass answers PING with -NOAUTH: that is ready (before, the readiness probe waited
     * for +PONG until its timeout, five times, and the start failed), and the version check authenticates.
     */
    @Test
    void aServerWithAPasswordIsReadyAtOnce() throws Exception {
        requireRedis();
        RedisServerTarget target = RedisServerTarget.start("--requirepass", "s3cret");
        try (RespClient client = new RespClient("127.0.0.1", target.port())) {
            assertThat(client.call("PING").text()).startsWith("NOAUTH");
            assertThat(client.call("AUTH", "s3cret").text()).isEqualTo("OK");
            assertThat(client.call("PING").text()).isEqualTo("PONG");
        } finally {
            target.close();
        }
    }

    @Test
    void serverDiesWithAKilledJvm() throws Exception {
        requireRedis();
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                RedisServerTargetTest.class.getName()).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String line;
            int port = -1;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("port ")) {
                    port = Integer.parseInt(line.substring(5).trim());
                    break;
                }
            }
            assertThat(port).as("the child JVM started a redis-server").isPositive();
            assertThat(listening(port)).isTrue();
            java.util.List<ProcessHandle> servers = child.toHandle().descendants().toList(); // watchdog, redis-server
            assertThat(servers).isNotEmpty();
            child.destroyForcibly(); // SIGKILL: no shutdown hook runs
            child.waitFor(10, TimeUnit.SECONDS);
            for (ProcessHandle server : servers) {
                server.onExit().get(10, TimeUnit.SECONDS); // the watchdog notices within half a second
            }
            assertThat(listening(port)).as("redis-server on %d outlived its JVM", port).isFalse();
        } finally {
            child.destroyForcibly();
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException refused) {
            return false;
        }
    }

    private static void requireRedis() {
        if (!RedisServerTarget.available()) {
            if (Targets.realRedisRequired()) {
                throw new IllegalStateException("redis-server is not on PATH");
            }
            throw new TestAbortedException("redis-server is not on PATH");
        }
    }
}
