package dev.redsim.conformance;

import dev.redsim.conformance.target.RedisServerTarget;
import dev.redsim.conformance.target.Targets;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "redis-cli shutdown" stops the simulator's command line as it stops redis-server: the server process exits with
 * status 0 and redis-cli, whose connection the server closes without a reply, prints nothing and exits with 0.
 */
class ShutdownCliTest {
    private static final Pattern READY = Pattern.compile("ready to accept connections tcp on ([0-9.]+):(\\d+)");

    @Test
    void redisCliShutdownStopsTheSimulatorAsItStopsRedisServer() throws Exception {
        if (!RedisServerTarget.available() && !Targets.realRedisRequired()) {
            throw new TestAbortedException("redis-server and redis-cli are not on PATH");
        }
        assertThat(shutdownSimulator()).isEqualTo(shutdownRedisServer()).isEqualTo(List.of("redis-cli exit 0: ",
                "server exit 0"));
    }

    private static List<String> shutdownSimulator() throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Process server = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "dev.redsim.simulator.SimulatorMain", "--port", "0").redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            Matcher ready = null;
            for (int i = 0; i < 20 && ready == null; i++) {
                String line = out.readLine();
                if (line == null) {
                    break;
                }
                Matcher candidate = READY.matcher(line);
                ready = candidate.find() ? candidate : null;
            }
            assertThat(ready).as("a ready line").isNotNull();
            List<String> seen = new ArrayList<>();
            seen.add(redisCliShutdown(Integer.parseInt(ready.group(2))));
            List<String> rest = new ArrayList<>();
            String line;
            while ((line = out.readLine()) != null) {
                rest.add(line);
            }
            assertThat(server.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(rest).contains("redsim: stopped");
            seen.add("server exit " + server.exitValue());
            return seen;
        } finally {
            server.destroyForcibly();
        }
    }

    private static List<String> shutdownRedisServer() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        File dir = java.nio.file.Files.createTempDirectory("redsim-shutdown-").toFile();
        Process server = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.getPath())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            // until redis-server listens (it writes no ready line we can read portably): its own event, bounded by a
            // deadline; 200 quick attempts were not always enough on a loaded machine (CI saw redis-cli find no server)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!answers(port) && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            List<String> seen = new ArrayList<>();
            seen.add(redisCliShutdown(port));
            assertThat(server.waitFor(20, TimeUnit.SECONDS)).isTrue();
            seen.add("server exit " + server.exitValue());
            return seen;
        } finally {
            server.destroyForcibly();
        }
    }

    private static boolean answers(int port) {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String redisCliShutdown(int port) throws IOException, InterruptedException {
        Process cli = new ProcessBuilder("redis-cli", "-p", Integer.toString(port), "shutdown")
                .redirectErrorStream(true).start();
        String output = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(cli.waitFor(20, TimeUnit.SECONDS)).isTrue();
        return "redis-cli exit " + cli.exitValue() + ": " + output;
    }
}
