package dev.redsim.conformance.scenario;

import dev.redsim.simulator.protocol.InlineSplitter;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads scenario files: plain text, one command per line in redis-cli's quoting, grouped into scenarios.
 *
 * <pre>
 * # a comment
 * ### SET with NX and GET        starts a scenario (each starts from empty databases)
 * SET k v NX GET
 * &#64;c2 GET k                   sent by a second connection
 * &#64;sort SMEMBERS s            reply compared as an unordered collection
 * &#64;approx 1 TTL k             integers may differ by at most 1
 * &#64;shape SRANDMEMBER s 2      same type and size (random choice)
 * &#64;ignore CLIENT ID           sent, not compared
 * &#64;resp3 HGETALL h            only when the scenario runs under RESP3 (&#64;resp2 likewise)
 * &#64;c2 &#64;send BLPOP q 0         sent without waiting for the reply (blocking commands)
 * &#64;c2 &#64;recv                    reads and compares the next reply or push message of that client
 * &#64;blocked 2                   waits until both servers count 2 blocked clients (INFO blocked_clients),
 *                              so a later command surely finds earlier &#64;send blocking commands waiting
 * CLIENT KILL ID {c2.id}        an argument {cN.id} is the CLIENT ID of connection cN on that server
 * </pre>
 *
 * A file whose first line (before any ### scenario) is {@code @cluster 3} runs each scenario on two clusters of 3
 * masters (a real one and the simulated one) instead of two servers; {@code @cluster 3 replicas 1} gives each master a
 * replica (nodes 3, 4 and 5, the replicas of nodes 0, 1 and 2). Its steps may then name a node:
 *
 * <pre>
 * &#64;node1 CLUSTER MYID           sent to the node serving the second range of slots (node 0 by default)
 * &#64;node-of:foo GET foo          sent to the node serving foo's slot
 * &#64;c2 &#64;node2 SSUBSCRIBE ch      each scenario client has one connection per node it talks to
 * </pre>
 *
 * Cluster replies are compared with node IDs, ports and bus ports named by node ({@code <id0>}, {@code <port1>},
 * {@code <bus2>}), see {@link ClusterNames}.
 */
public final class ScenarioFile {
    private ScenarioFile() {
    }

    public static List<Scenario> parse(String fileName, String text) {
        List<Scenario> scenarios = new ArrayList<>();
        String name = null;
        int nameLine = 0;
        List<Step> steps = new ArrayList<>();
        int clusterMasters = 0;
        int clusterReplicas = 0;
        boolean clusterFresh = false;
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            int lineNo = i + 1;
            if (line.startsWith("@cluster ") && name == null) {
                List<String> words = new ArrayList<>(List.of(line.substring("@cluster ".length()).strip()
                        .split("\\s+")));
                clusterFresh = words.get(words.size() - 1).equals("fresh");
                if (clusterFresh) {
                    words.remove(words.size() - 1);
                }
                clusterMasters = Integer.parseInt(words.get(0));
                if (words.size() == 3 && words.get(1).equals("replicas")) {
                    clusterReplicas = Integer.parseInt(words.get(2));
                } else if (words.size() != 1) {
                    throw new IllegalArgumentException(fileName + ":" + lineNo + ": @cluster N [replicas R] [fresh]");
                }
                continue;
            }
            if (line.startsWith("###")) {
                if (name != null) {
                    scenarios.add(new Scenario(fileName, name, nameLine, List.copyOf(steps), clusterMasters,
                            clusterReplicas, clusterFresh));
                }
                name = line.substring(3).strip();
                nameLine = lineNo;
                steps.clear();
                continue;
            }
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (name == null) {
                throw new IllegalArgumentException(fileName + ":" + lineNo + ": a command before the first ### scenario");
            }
            Step step = parseStep(fileName, lineNo, line);
            if (step.node() != null && clusterMasters == 0) {
                throw new IllegalArgumentException(fileName + ":" + lineNo + ": @node in a file without an @cluster header");
            }
            steps.add(step);
        }
        if (name != null) {
            scenarios.add(new Scenario(fileName, name, nameLine, List.copyOf(steps), clusterMasters, clusterReplicas,
                    clusterFresh));
        }
        return scenarios;
    }

    private static Step parseStep(String file, int lineNo, String line) {
        int client = 1;
        Step.Compare compare = Step.Compare.EXACT;
        long tolerance = 0;
        int protocol = 0;
        Step.Io io = Step.Io.CALL;
        String node = null;
        String rest = line;
        while (rest.startsWith("@")) {
            int space = rest.indexOf(' ');
            if (rest.startsWith("@blocked ")) {
                byte[][] count = {rest.substring("@blocked ".length()).strip().getBytes(StandardCharsets.US_ASCII)};
                return new Step(lineNo, client, count, compare, tolerance, protocol, Step.Io.AWAIT_BLOCKED);
            }
            if (rest.equals("@recv")) {
                return new Step(lineNo, client, new byte[0][], compare, tolerance, protocol, Step.Io.RECEIVE, node);
            }
            if (space < 0) {
                throw new IllegalArgumentException(file + ":" + lineNo + ": directive without a command");
            }
            String directive = rest.substring(1, space);
            rest = rest.substring(space + 1).stripLeading();
            switch (directive) {
                case "sort" -> compare = Step.Compare.SORTED;
                case "shape" -> compare = Step.Compare.SHAPE;
                case "ignore" -> compare = Step.Compare.IGNORE;
                case "resp2" -> protocol = 2;
                case "resp3" -> protocol = 3;
                case "send" -> io = Step.Io.SEND;
                case "approx" -> {
                    int next = rest.indexOf(' ');
                    tolerance = Long.parseLong(rest.substring(0, next));
                    rest = rest.substring(next + 1).stripLeading();
                    compare = Step.Compare.APPROX;
                }
                default -> {
                    if (directive.matches("c\\d+")) {
                        client = Integer.parseInt(directive.substring(1));
                    } else if (directive.matches("node\\d+")) {
                        node = directive.substring("node".length());
                    } else if (directive.startsWith("node-of:") && directive.length() > "node-of:".length()) {
                        node = directive.substring("node-".length());
                    } else {
                        throw new IllegalArgumentException(file + ":" + lineNo + ": unknown directive @" + directive);
                    }
                }
            }
        }
        byte[][] args = InlineSplitter.split(rest.getBytes(StandardCharsets.UTF_8));
        if (args == null || args.length == 0) {
            throw new IllegalArgumentException(file + ":" + lineNo + ": cannot split: " + rest);
        }
        return new Step(lineNo, client, args, compare, tolerance, protocol, io, node);
    }

    /** Reads a scenario file from the classpath. */
    public static List<Scenario> load(String resource) {
        try (InputStream in = ScenarioFile.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no such resource: " + resource);
            }
            String name = resource.substring(resource.lastIndexOf('/') + 1);
            return parse(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
