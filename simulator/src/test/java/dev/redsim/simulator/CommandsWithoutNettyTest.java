package dev.redsim.simulator;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * FirstStartClassesTest checks a start, a PING and a stop; this runs the rest of what an in-process simulator does
 * with its sockets in a fresh JVM (INFO, CLIENT LIST and KILL, DEBUG, scripts on and off the engine thread, pub/sub,
 * MONITOR, blocking, CLIENT PAUSE, a big reply, CONFIG SET port, a cluster whose node stops and starts, SHUTDOWN) and
 * checks that none of it loads an io.netty class.
 */
class CommandsWithoutNettyTest {
    @Test
    void theInProcessPathsLoadNoNettyClass() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xlog:class+load=info", "-cp", System.getProperty("java.class.path"),
                ManyCommands.class.getName()).redirectErrorStream(true).start();
        String output;
        try (InputStream in = child.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            if (!child.waitFor(120, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
        assertThat(output).contains("all done");
        List<String> netty = output.lines().filter(line -> line.contains(" io.netty.")).toList();
        assertThat(netty).as("Netty classes loaded in process").isEmpty();
    }

    /** The child JVM's program. */
    static final class ManyCommands {
        public static void main(String[] args) throws Exception {
            RedisSimulator simulator = RedisSimulator.start();
            try (Socket a = connect(simulator.port()); Socket b = connect(simulator.port())) {
                send(b, "SUBSCRIBE news");
                until(b, "news");
                send(a, "SET k v", "SETRANGE big 3000000 x", "GET big", "INFO", "CLIENT LIST", "CLIENT INFO",
                        "DEBUG OBJECT k", "MEMORY USAGE k", "EVAL \"return redis.call('GET', KEYS[1])\" 1 k",
                        "EVAL \"local i = 0 while i < 3000000 do i = i + 1 end return i\" 0",
                        "FUNCTION LOAD \"#!lua name=lib\\nredis.register_function('f', function(keys, args) "
                                + "local i = 0 while i < 3000000 do i = i + 1 end return redis.call('GET', keys[1]) end)\"",
                        "FCALL f 1 k", "PUBLISH news hello", "BLPOP nothing 0.05", "CLIENT PAUSE 20 WRITE",
                        "SET k w", "SLOWLOG GET", "LATENCY LATEST", "ECHO end-of-a");
                until(a, "end-of-a");
                until(b, "hello");
            }
            try (Socket monitor = connect(simulator.port()); Socket a = connect(simulator.port())) {
                send(monitor, "MONITOR");
                until(monitor, "OK");
                send(a, "PING seen");
                until(monitor, "seen");
                send(a, "CLIENT KILL TYPE normal SKIPME yes", "ECHO end-of-kill");
                until(a, "end-of-kill");
            }
            int newPort;
            try (ServerSocket free = new ServerSocket(0)) {
                newPort = free.getLocalPort();
            }
            try (Socket a = connect(simulator.port())) {
                send(a, "CONFIG SET port " + newPort);
                until(a, "OK");
            }
            try (Socket a = connect(newPort)) {
                send(a, "QUIT");
                until(a, "OK");
            }
            try (Socket a = connect(newPort)) {
                send(a, "SHUTDOWN NOSAVE");
                if (!simulator.awaitClosed(Duration.ofSeconds(20))) {
                    throw new IllegalStateException("SHUTDOWN did not close the simulator");
                }
            }
            try (RedisCluster cluster = RedisSimulator.cluster().masters(3).start()) {
                try (Socket a = connect(cluster.nodeFor("k").port())) {
                    send(a, "SET k v", "CLUSTER NODES", "ECHO end-of-cluster");
                    until(a, "end-of-cluster");
                }
                cluster.stop(0);
                cluster.start(0);
                try (Socket a = connect(cluster.ports().get(0))) {
                    send(a, "PING", "ECHO end-of-restart");
                    until(a, "end-of-restart");
                }
            }
            System.out.println("all done");
        }

        private static Socket connect(int port) throws IOException {
            Socket socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(20_000);
            return socket;
        }

        private static void send(Socket socket, String... inline) throws IOException {
            StringBuilder text = new StringBuilder();
            for (String command : inline) {
                text.append(command).append("\r\n");
            }
            socket.getOutputStream().write(text.toString().getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
        }

        /** Reads until what came contains {@code marker}. */
        private static void until(Socket socket, String marker) throws IOException {
            ByteArrayOutputStream seen = new ByteArrayOutputStream();
            byte[] piece = new byte[64 * 1024];
            while (!seen.toString(StandardCharsets.ISO_8859_1).contains(marker)) {
                int n = socket.getInputStream().read(piece);
                if (n < 0) {
                    throw new IOException("closed before " + marker + ": " + seen.toString(StandardCharsets.ISO_8859_1));
                }
                seen.write(piece, 0, n);
            }
        }
    }
}
