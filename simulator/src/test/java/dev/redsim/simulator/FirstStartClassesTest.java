package dev.redsim.simulator;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the first in-process start of a fresh JVM loads, which is most of its cost (issue 20: a test suite pays it at
 * its first simulator). A child JVM starts a simulator, sends PING, reads PONG and stops, logging every class it
 * loads: no lambda of ours may load but the handlers of the one family PING binds (a fresh JVM spins a class for each
 * lambda at its first use, often with method-handle forms, and the ~45 of them on the start's path were ~20 ms:
 * decision 0050). And the simulator's classes concatenate strings without invokedynamic (each concatenation's first run otherwise
 * links method handles: decision 0050).
 */
class FirstStartClassesTest {
    private static List<String> loaded;

    @BeforeAll
    static void startPingAndStopInAFreshJvm() throws Exception {
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
        loaded = output.lines().toList();
    }

    @Test
    void noLambdaOfOursRunsButTheHandlersOfTheFamilyPingBinds() {
        List<String> lambdas = loaded.stream()
                .filter(line -> line.contains(" dev.redsim.") && line.contains("$$Lambda"))
                .filter(line -> !line.contains(" dev.redsim.simulator.commands.connection.ConnectionCommands$$Lambda"))
                .toList();
        assertThat(lambdas).as("lambdas spun by a start, a PING and a stop").isEmpty();
    }

    @Test
    void theSimulatorsClassesConcatenateStringsWithoutInvokedynamic() throws IOException, URISyntaxException {
        Path classes = Path.of(RedisSimulator.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        byte[] bootstrap = "makeConcatWithConstants".getBytes(StandardCharsets.US_ASCII);
        List<String> linking;
        try (Stream<Path> files = Files.walk(classes)) {
            linking = files.filter(file -> file.toString().endsWith(".class"))
                    .filter(file -> contains(read(file), bootstrap))
                    .map(file -> classes.relativize(file).toString())
                    .toList();
        }
        assertThat(linking).as("classes compiled with invokedynamic string concatenation").isEmpty();
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static boolean contains(byte[] bytes, byte[] part) {
        outer:
        for (int i = 0; i + part.length <= bytes.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (bytes[i + j] != part[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** The child JVM's program. */
    static final class StartPingStop {
        public static void main(String[] args) throws IOException {
            try (RedisSimulator simulator = RedisSimulator.start();
                    Socket socket = new Socket(simulator.host(), simulator.port())) {
                socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
                byte[] reply = socket.getInputStream().readNBytes(7);
                System.out.print("reply: ");
                System.out.println(new String(reply, StandardCharsets.US_ASCII).trim());
            }
        }
    }
}
