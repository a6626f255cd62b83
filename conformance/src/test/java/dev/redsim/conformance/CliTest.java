package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.Targets;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulator as a person runs it: the command line starts it in its own JVM and prints a ready line,
 * redis-cli is used interactively in a terminal (tmux), and SIGTERM stops it cleanly.
 */
class CliTest {
    private static final Pattern READY = Pattern.compile("ready to accept connections tcp on ([0-9.]+):(\\d+)");

    @Test
    void commandLineServesRedisCliInteractivelyAndStopsOnSigterm() throws Exception {
        requireTools("redis-cli", "tmux");
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Process server = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "dev.redsim.simulator.SimulatorMain", "--port", "0").redirectErrorStream(true).start();
        String socketName = "redsim-cli-" + ProcessHandle.current().pid();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            // the ready line may come after lines other libraries print at start (logging notices)
            Matcher m = null;
            for (int i = 0; i < 20 && m == null; i++) {
                String line = out.readLine();
                if (line == null) {
                    break;
                }
                Matcher candidate = READY.matcher(line);
                m = candidate.find() ? candidate : null;
            }
            assertThat(m).as("a ready line").isNotNull();
            int port = Integer.parseInt(m.group(2));

            run("tmux", "-L", socketName, "new-session", "-d", "-s", "cli", "-x", "150", "-y", "40",
                    "redis-cli -p " + port);
            awaitScreen(socketName, "127.0.0.1:" + port + ">");
            type(socketName, "SET greeting \"hello world\"");
            awaitScreen(socketName, "OK");
            type(socketName, "GET greeting");
            // the reply's own line: the typed SET above shows "hello world" too, and typing on before redis-cli
            // has its reply loses the keys
            awaitScreen(socketName, "> GET greeting\n\"hello world\"");
            type(socketName, "INCR counter");
            awaitScreen(socketName, "(integer) 1");
            type(socketName, "NOSUCHCOMMAND x");
            awaitScreen(socketName, "(error) ERR unknown command 'NOSUCHCOMMAND'");

            try (RespClient client = new RespClient("127.0.0.1", port)) {
                String stats = client.call("INFO", "commandstats").text();
                // redis-cli asks COMMAND DOCS at start to offer hints and help; it must have been answered
                assertThat(stats).contains("cmdstat_command|docs:calls=");
            }

            server.toHandle().destroy(); // SIGTERM, leaving our end of its output open (Process.destroy closes it)
            List<String> rest = new ArrayList<>();
            String line;
            while ((line = out.readLine()) != null) { // until the process closes its output
                rest.add(line);
            }
            assertThat(server.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(rest).contains("redsim: stopped");
        } finally {
            server.destroyForcibly();
            new ProcessBuilder("tmux", "-L", socketName, "kill-server").start().waitFor(5, TimeUnit.SECONDS);
        }
    }

    private static void type(String socket, String text) throws IOException, InterruptedException {
        run("tmux", "-L", socket, "send-keys", "-t", "cli", "-l", text);
        run("tmux", "-L", socket, "send-keys", "-t", "cli", "Enter");
    }

    /** Reads the terminal until the text shows (an external process: there is no event to wait on), bounded. */
    private static void awaitScreen(String socket, String expected) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        String screen = "";
        while (System.nanoTime() < deadline) {
            screen = capture(socket);
            if (screen.contains(expected)) {
                return;
            }
            Thread.onSpinWait(); // each capture is a tmux process run: the loop paces itself
        }
        throw new AssertionError("terminal never showed '" + expected + "'; screen:\n" + screen);
    }

    private static String capture(String socket) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("tmux", "-L", socket, "capture-pane", "-p", "-t", "cli").start();
        String screen = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(5, TimeUnit.SECONDS);
        return screen;
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
        }
    }

    private static void requireTools(String... tools) {
        for (String tool : tools) {
            boolean found = false;
            for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                if (new File(dir, tool).canExecute()) {
                    found = true;
                }
            }
            if (!found) {
                String message = tool + " is not installed (apt-get install redis-tools tmux)";
                if (Targets.realRedisRequired()) {
                    throw new IllegalStateException(message);
                }
                throw new TestAbortedException(message);
            }
        }
    }
}
