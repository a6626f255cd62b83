import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisClusterTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.simulator.RedisCluster;
import dev.redsim.simulator.RedisSimulator;

import java.util.Arrays;

/**
 * Start-to-ready of a 3-master cluster: in process (RedisSimulator.cluster(), ready when every node answers
 * cluster_state:ok) next to a real one (redis-server and redis-cli from PATH, as the conformance kit starts it: three
 * processes, redis-cli --cluster create, ready when every node is ok, agrees on the slots and has its links).
 * Printed, never asserted. Build first (mvnl -q -B test-compile -pl simulator,conformance), then:
 *
 *   java -cp simulator/target/classes:conformance/target/classes:$(cat cp.txt) bench/ClusterStartBenchmark.java [runs] [realRuns]
 *
 * (cp.txt: mvnl -q -B dependency:build-classpath -pl conformance -Dmdep.outputFile=$PWD/cp.txt)
 */
public class ClusterStartBenchmark {
    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int realRuns = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        double[] simulated = new double[runs];
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            try (RedisCluster cluster = RedisSimulator.cluster().start()) {
                for (int port : cluster.ports()) {
                    awaitOk(cluster.host(), port);
                }
                simulated[i] = (System.nanoTime() - t0) / 1e6;
            }
        }
        double[] real = new double[realRuns];
        for (int i = 0; i < realRuns; i++) {
            long t0 = System.nanoTime();
            try (RedisClusterTarget cluster = RedisClusterTarget.start(3, 0)) {
                for (RedisTarget node : cluster.nodes()) {
                    awaitOk(node.host(), node.port());
                }
                real[i] = (System.nanoTime() - t0) / 1e6;
            }
        }
        System.out.printf("in-process 3-master cluster, start to ready: first %.1f ms (fresh JVM), then median %.2f ms,"
                + " max %.2f ms over %d starts%n", simulated[0], median(simulated, 1), max(simulated, 1), runs - 1);
        System.out.printf("real redis-server 3-master cluster (redis-cli --cluster create), start to ready: median %.0f ms,"
                + " max %.0f ms over %d starts%n", median(real, 0), max(real, 0), realRuns);
    }

    private static void awaitOk(String host, int port) {
        try (RespClient client = new RespClient(host, port)) {
            while (!client.call("CLUSTER", "INFO").text().contains("cluster_state:ok")) {
                Thread.onSpinWait();
            }
        }
    }

    private static double median(double[] values, int from) {
        double[] sorted = Arrays.copyOfRange(values, from, values.length);
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double max(double[] values, int from) {
        return Arrays.stream(values, from, values.length).max().orElse(0);
    }
}
