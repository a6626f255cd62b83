package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisClusterTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.Targets;
import dev.redsim.simulator.RedisCluster;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clusters of other sizes than the 3 masters the other conformance tests use: redis-cli --cluster create and the
 * simulator give each master the same slot ranges and config epoch, so CLUSTER SLOTS, SHARDS, NODES and INFO of the
 * first node are the same on both, with node IDs and ports named ({@link ClusterReplies}).
 */
class ClusterSlotSplitConformanceTest {
    private static final String[] COMMANDS = {"SLOTS", "SHARDS", "NODES", "INFO"};

    @ParameterizedTest(name = "{0} masters")
    @ValueSource(ints = {4, 5})
    void slotsAreSplitAsRedisCliSplitsThem(int masters) {
        List<String> real;
        try (RedisClusterTarget cluster = Targets.referenceCluster(masters, 0)) {
            RedisTarget first = cluster.nodes().get(0);
            real = topology(first.host(), first.port());
        }
        List<String> simulated;
        try (RedisCluster cluster = RedisSimulator.cluster().masters(masters).start()) {
            simulated = topology(cluster.host(), cluster.ports().get(0));
        }
        assertThat(simulated).containsExactlyElementsOf(real);
    }

    private static List<String> topology(String host, int port) {
        List<String> out = new ArrayList<>();
        try (RespClient client = new RespClient(host, port)) {
            ClusterReplies replies = new ClusterReplies(client);
            for (String command : COMMANDS) {
                out.add("CLUSTER " + command + " -> " + replies.call(client, "CLUSTER", command));
            }
        }
        return out;
    }
}
