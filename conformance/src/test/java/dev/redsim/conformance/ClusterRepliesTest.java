package dev.redsim.conformance;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ClusterRepliesTest {
    private static final String A = "a".repeat(40);
    private static final String B = "b".repeat(40);

    /**
     * A simulated node announces port + 10000 as its bus port without listening there, so another node of the same
     * cluster can get that very number as its client port (seen once in ClusterReplicasConformanceTest: a node's bus
     * named as another node's port). Each number is named by where it stands.
     */
    @Test
    void aBusPortThatIsAlsoAnotherNodesPortIsNamedAsABusPort() {
        String nodes = A + " 127.0.0.1:30001@40001 myself,master - 0 0 1 connected 0-8191\n"
                + B + " 127.0.0.1:40001@50001 master - 0 0 2 connected 8192-16383\n";
        ClusterReplies replies = new ClusterReplies(nodes);

        assertThat(replies.named(A + " 127.0.0.1:30001@40001")).isEqualTo("<id0> 127.0.0.1:<port0>@<bus0>");
        assertThat(replies.named(B + " 127.0.0.1:40001@50001")).isEqualTo("<id1> 127.0.0.1:<port1>@<bus1>");
        assertThat(replies.named("master_port:40001")).isEqualTo("master_port:<port1>");
    }
}
