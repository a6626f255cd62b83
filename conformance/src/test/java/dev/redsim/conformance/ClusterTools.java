package dev.redsim.conformance;

import dev.redsim.conformance.target.Targets;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** redis-cli for cluster tests: whether it can run here (in CI it must), and its output. */
final class ClusterTools {
    private ClusterTools() {
    }

    static boolean redisCliAvailable() {
        try {
            return new ProcessBuilder("redis-cli", "--version").start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            if (Targets.realRedisRequired()) {
                throw new IllegalStateException("redis-cli is required here (CI=true)", e);
            }
            return false;
        }
    }

    static String run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not finish");
        }
        return new String(output, StandardCharsets.UTF_8);
    }
}
