package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One connection to each node of a 3-master cluster (simulated or real), kept for a whole sequence so that per-client
 * state such as ASKING carries from one step to the next, and a log of every step and its reply with what differs
 * between clusters by nature named ({@link ClusterReplies}, learned before the sequence changes the topology). Two
 * clusters that ran the same sequence must have equal logs.
 */
final class ClusterNodesSession implements AutoCloseable {
    /**
     * A real node learns another node's change of role only from that node's own ping, which may come as late as half
     * of cluster-node-timeout (15 s by default) after the change, later on a loaded machine: 10 s was not always
     * enough (a clean-clone CI run saw one node still listing the old master as a master). The wait ends as soon as
     * the nodes agree.
     */
    private static final long AGREEMENT_TIMEOUT_MS = 30_000;

    private final String host;
    private final List<Integer> ports;
    private final List<RespClient> clients = new ArrayList<>();
    private final List<String> ids = new ArrayList<>();
    private final ClusterReplies replies;
    private final List<String> log = new ArrayList<>();

    ClusterNodesSession(String host, List<Integer> ports) {
        this.host = host;
        this.ports = ports;
        for (int port : ports) {
            RespClient client = new RespClient(host, port);
            clients.add(client);
            ids.add(client.call("CLUSTER", "MYID").text());
        }
        replies = new ClusterReplies(clients.get(0));
    }

    String host() {
        return host;
    }

    int port(int node) {
        return ports.get(node);
    }

    String id(int node) {
        return ids.get(node);
    }

    /** Runs a command on a node and logs it with its reply, both normalised. */
    void step(int node, String... command) {
        log.add(node + "> " + replies.named(String.join(" ", command)) + " -> " + replies.call(clients.get(node), command));
    }

    /** Logs a node's CLUSTER INFO field as it is now. */
    void info(int node, String field) {
        String info = clients.get(node).call("CLUSTER", "INFO").text();
        for (String line : info.split("\r\n")) {
            if (line.startsWith(field + ":")) {
                log.add(node + "> " + line);
            }
        }
    }

    /**
     * Waits (bounded, polling the nodes) until every node describes the same nodes, slots and epochs, and says the cluster is
     * ok: a real cluster spreads most changes by gossip in milliseconds and a change of role within half of
     * cluster-node-timeout; the simulated one has nothing to wait for.
     */
    void awaitAgreement() {
        long deadline = System.currentTimeMillis() + AGREEMENT_TIMEOUT_MS;
        String last = "";
        while (System.currentTimeMillis() < deadline) {
            Set<String> views = new TreeSet<>();
            boolean ok = true;
            for (RespClient client : clients) {
                String info = client.call("CLUSTER", "INFO").text();
                ok &= info.contains("cluster_state:ok");
                String epoch = info.replaceAll("(?s).*cluster_current_epoch:(\\d+).*", "$1");
                views.add(epoch + " " + nodesView(client.call("CLUSTER", "NODES").text()));
            }
            if (ok && views.size() == 1) {
                return;
            }
            last = views.toString(); // each probe is a round trip per node: nothing sleeps between them
        }
        throw new IllegalStateException("the nodes did not come to agree: " + last);
    }

    /** CLUSTER NODES without what is a node's own (myself, timings, open slots), sorted. */
    private static String nodesView(String text) {
        Set<String> lines = new TreeSet<>();
        for (String line : text.split("\n")) {
            String[] fields = line.split(" ");
            StringBuilder kept = new StringBuilder(fields[0] + " " + fields[2].replace("myself,", "") + " " + fields[6]);
            for (int i = 8; i < fields.length; i++) {
                if (!fields[i].startsWith("[")) {
                    kept.append(' ').append(fields[i]);
                }
            }
            lines.add(kept.toString());
        }
        return lines.toString();
    }

    /** The session's connection to a node, for a test that polls a node's state without logging it. */
    RespClient client(int node) {
        return clients.get(node);
    }

    /** Adds a line of the test's own to the log (a fact checked on both clusters, already normalised). */
    void note(String line) {
        log.add(line);
    }

    /**
     * Polls (bounded, round trips only) until {@code condition} holds: what a real cluster does in the background
     * (replicas catching up, a failover, gossip) is done on the simulated one before the call returns.
     */
    void await(String what, java.util.function.BooleanSupplier condition) {
        long deadline = System.currentTimeMillis() + AGREEMENT_TIMEOUT_MS;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("timed out waiting for " + what);
            }
        }
    }

    List<String> log() {
        return log;
    }

    @Override
    public void close() {
        clients.forEach(RespClient::close);
    }
}
