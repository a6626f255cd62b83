package dev.redsim.conformance.differential;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.scenario.ClusterNames;
import dev.redsim.conformance.target.ClusterTarget;
import dev.redsim.conformance.target.RedisTarget;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs histories on two clusters (a real one and the simulated one) as a cluster client would: each history client
 * starts on a node of its own (client i on node i mod N) and sends every call to the node it is on; a -MOVED reply
 * is compared like any other (with ports named by node, {@link ClusterNames}), then followed: the client moves to the
 * node named and sends the call again, and that reply is compared too. So redirections, CROSSSLOT refusals and the
 * replies of the node serving the keys are all compared, in the same order on both clusters. Every master is flushed
 * before each history; connections (one per history client and node) are reused and RESET first.
 */
public final class ClusterDifferentialRunner implements HistoryRunner {
    private static final String[][] FLUSHES = {{"FLUSHALL"}, {"SCRIPT", "FLUSH"}, {"FUNCTION", "FLUSH"}};
    private static final Pattern MOVED_TO = Pattern.compile("MOVED \\d+ [^ ]*:<port(\\d+)>");

    private final Side reference;
    private final Side subject;
    private final int masters;
    private long commandsCompared;
    private long redirectionsFollowed;

    public ClusterDifferentialRunner(ClusterTarget reference, ClusterTarget subject) {
        if (reference.masters().size() != subject.masters().size()) {
            throw new IllegalArgumentException("clusters of different sizes");
        }
        this.reference = new Side(reference);
        this.subject = new Side(subject);
        this.masters = reference.masters().size();
    }

    @Override
    public long commandsCompared() {
        return commandsCompared;
    }

    /** How many MOVED replies were followed to the node they named (on both clusters alike). */
    public long redirectionsFollowed() {
        return redirectionsFollowed;
    }

    @Override
    public Optional<Difference> run(List<Call> history) {
        reference.reset();
        subject.reset();
        List<Integer> nodeOfClient = new ArrayList<>();
        for (int i = 0; i < history.size(); i++) {
            Call call = history.get(i);
            while (nodeOfClient.size() <= call.client()) {
                nodeOfClient.add(nodeOfClient.size() % masters);
            }
            int node = nodeOfClient.get(call.client());
            for (int attempt = 0; attempt < 2; attempt++) {
                RespValue expected = reference.call(call, node);
                RespValue actual = subject.call(call, node);
                commandsCompared++;
                if (!Comparisons.same(call, expected, actual)) {
                    return Optional.of(new Difference(i, call, expected, actual));
                }
                Integer movedTo = movedTo(expected);
                if (movedTo == null) {
                    break;
                }
                redirectionsFollowed++;
                node = movedTo; // a stable cluster redirects once: the named node serves the slot
                nodeOfClient.set(call.client(), node);
            }
        }
        return Optional.empty();
    }

    private static Integer movedTo(RespValue reply) {
        if (!reply.isError()) {
            return null;
        }
        Matcher m = MOVED_TO.matcher(reply.text());
        return m.matches() ? Integer.parseInt(m.group(1)) : null;
    }

    @Override
    public void close() {
        reference.close();
        subject.close();
    }

    /** One cluster: its nodes' names, and a connection per history client and node. */
    private static final class Side {
        private final List<RedisTarget> masters;
        private final ClusterNames names;
        private final List<RespClient[]> clients = new ArrayList<>();

        Side(ClusterTarget cluster) {
            this.masters = cluster.masters();
            this.names = new ClusterNames(masters);
        }

        RespValue call(Call call, int node) {
            while (clients.size() <= call.client()) {
                clients.add(new RespClient[masters.size()]);
            }
            RespClient[] byNode = clients.get(call.client());
            if (byNode[node] == null) {
                byNode[node] = new RespClient(masters.get(node).host(), masters.get(node).port());
            }
            return names.normalise(call.args(), byNode[node].call(call.args()));
        }

        void reset() {
            for (RespClient[] byNode : clients) {
                for (int n = 0; n < byNode.length; n++) {
                    if (byNode[n] == null) {
                        continue;
                    }
                    try {
                        byNode[n].call("RESET"); // no transaction, watch or subscription is left behind
                    } catch (UncheckedIOException closed) {
                        byNode[n].close();
                        byNode[n] = null;
                    }
                }
            }
            for (RedisTarget node : masters) {
                try (RespClient admin = new RespClient(node.host(), node.port())) {
                    for (String[] flush : FLUSHES) {
                        admin.call(flush);
                    }
                }
            }
        }

        void close() {
            for (RespClient[] byNode : clients) {
                for (RespClient client : byNode) {
                    if (client != null) {
                        client.close();
                    }
                }
            }
            clients.clear();
        }
    }
}
