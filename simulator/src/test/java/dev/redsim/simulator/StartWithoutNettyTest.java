package dev.redsim.simulator;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An in-process simulator runs on the simulator's own transport (decision 0049): in a fresh JVM, a start, a client's
 * PING and PONG, and a stop load no Netty class (Netty's first use was about 200 ms of a first start: its logger
 * lookup, platform probes, allocator and loops).
 */
class StartWithoutNettyTest {
    @Test
    void aStartAPingAndAStopLoadNoNettyClass() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xlog:class+load=info", "-cp", System.getProperty("java.class.path"),
                StartPingStop.class.getName()).redirectErrorStream(true).start();
        String output;
        try (InputStream in = child.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            if (!child.waitFor(60, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
        assertThat(output).contains("reply: +PONG");
        List<String> netty = output.lines().filter(line -> line.contains(" io.netty.")).toList();
        assertThat(netty).as("Netty classes loaded by an in-process start").isEmpty();
    }

    /** The child JVM's program. */
    static final class StartPingStop {
        public static void main(String[] args) throws IOException {
            try (RedisSimulator simulator = RedisSimulator.start();
                    Socket socket = new Socket(simulator.host(), simulator.port())) {
                socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
                byte[] reply = socket.getInputStream().readNBytes(7);
                System.out.println("reply: " + new String(reply, StandardCharsets.US_ASCII).trim());
            }
        }
    }
}
