package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --cluster 3} on the command line: a cluster in its own JVM that prints every node's address, which
 * redis-cli's own cluster tools accept ({@code --cluster check} finds every slot covered, {@code -c} follows MOVED),
 * and that SIGTERM stops.
 */
class ClusterCliTest {
    private static final Pattern NODE = Pattern.compile("cluster node ([0-9a-f]{40}) ready to accept connections tcp on "
            + "([0-9.]+):(\\d+)");

    @Test
    void commandLineClusterPrintsEveryNodeAndServesRedisCli() throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Process server = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "dev.redsim.simulator.SimulatorMain", "--cluster", "3").redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            List<Integer> ports = new ArrayList<>();
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                String line = out.readLine();
                if (line == null || line.contains("cluster of 3 masters ready")) {
                    break;
                }
                Matcher m = NODE.matcher(line);
                if (m.find()) {
                    ids.add(m.group(1));
                    ports.add(Integer.parseInt(m.group(3)));
                }
            }
            assertThat(ports).hasSize(3).doesNotHaveDuplicates();
            for (int i = 0; i < 3; i++) {
                try (RespClient client = new RespClient("127.0.0.1", ports.get(i))) {
                    assertThat(client.call("CLUSTER", "MYID").text()).isEqualTo(ids.get(i));
                }
            }
            if (ClusterTools.redisCliAvailable()) {
                String check = ClusterTools.run("redis-cli", "--cluster", "check", "127.0.0.1:" + ports.get(1));
                assertThat(check).contains("[OK] All nodes agree about slots configuration.")
                        .contains("[OK] All 16384 slots covered.");
                // -c follows the MOVED of a key served elsewhere
                assertThat(ClusterTools.run("redis-cli", "-c", "-p", ports.get(0).toString(), "SET", "a", "1")).contains("OK");
                assertThat(ClusterTools.run("redis-cli", "-c", "-p", ports.get(1).toString(), "GET", "a")).contains("1");
            }
            server.toHandle().destroy(); // SIGTERM
            List<String> rest = new ArrayList<>();
            String line;
            while ((line = out.readLine()) != null) {
                rest.add(line);
            }
            assertThat(server.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(rest).contains("redsim: stopped");
        } finally {
            server.destroyForcibly();
        }
    }
}
