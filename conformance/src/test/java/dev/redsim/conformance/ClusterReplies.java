package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replies of a cluster node as text in which what differs between two clusters by nature is named instead: node IDs,
 * ports and bus ports become {@code <id0>}, {@code <port0>}, {@code <bus0>} (numbered by the slots the node serves,
 * first range first; replicas after the masters, in their masters' order), link and pong times become {@code <time>},
 * link send buffer sizes {@code <buffer>}, a link's momentary "rw" events "r", replication offsets {@code <offset>},
 * bus message counters are dropped, and the nodes that
 * Redis lists in its hash table's order (CLUSTER NODES, SHARDS, LINKS) are sorted. Nothing else is
 * touched: the rest must be equal byte for byte.
 */
final class ClusterReplies {
    private static final Pattern TIME_FIELD = Pattern.compile("(create-time\\\\r\\\\n):\\d+");
    /** A real link's send buffer holds whatever gossip is in flight at that moment. */
    private static final Pattern BUFFER_FIELD = Pattern.compile("(send-buffer-(?:allocated|used)\\\\r\\\\n):\\d+");

    /**
     * A link's events are "rw" only while a bus message waits in its send buffer (Redis drops the write handler once
     * the buffer is empty): a moment of the real cluster's traffic, read as the idle "r".
     */
    private static final Pattern WRITING_LINK = Pattern.compile("(events\\\\r\\\\n)\\$2\\\\r\\\\nrw");

    /** A node's replication offset counts its master's keepalive PINGs too, sent on each server's own schedule. */
    private static final Pattern OFFSET_FIELD = Pattern.compile("(replication-offset\\\\r\\\\n):\\d+");

    /** A CLUSTER NODES line's ping-sent and pong-received fields, after its flags and master. */
    private static final Pattern NODE_LINE_TIMES = Pattern.compile("((?:slave|master) (?:[0-9a-f]{40}|-)) \\d+ \\d+ ");

    private final Map<String, String> names = new LinkedHashMap<>();
    /**
     * Bus ports apart from the IDs and client ports: a simulated node's bus port is its port + 10000 and is never
     * bound, so it can be the very number another node's client port got; named in one map, the later name won and a
     * node's bus showed up as another node's port.
     */
    private final Map<String, String> busNames = new LinkedHashMap<>();
    private static final Pattern BUS_PORT = Pattern.compile("@(\\d+)");

    /** Learns the cluster's nodes from one node's CLUSTER NODES. */
    ClusterReplies(RespClient anyNode) {
        this(anyNode.call("CLUSTER", "NODES").text());
    }

    /** Learns the cluster's nodes from a CLUSTER NODES text. */
    ClusterReplies(String text) {
        List<String[]> lines = new ArrayList<>();
        for (String line : text.split("\n")) {
            lines.add(line.split(" "));
        }
        lines.sort((a, b) -> Integer.compare(firstSlot(a), firstSlot(b)));
        // replicas (no slots) after the masters, in their masters' order: named alike on any two clusters
        java.util.Map<String, Integer> masterOrder = new java.util.HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            masterOrder.put(lines.get(i)[0], i);
        }
        lines.sort(java.util.Comparator.comparingInt((String[] f) -> f[2].contains("slave") ? 1 : 0)
                .thenComparingInt(f -> f[2].contains("slave") ? masterOrder.getOrDefault(f[3], 0) : 0)
                .thenComparingInt(ClusterReplies::firstSlot));
        for (int i = 0; i < lines.size(); i++) {
            String[] fields = lines.get(i);
            names.put(fields[0], "<id" + i + ">");
            String address = fields[1].split(",")[0];
            String hostPort = address.substring(0, address.indexOf('@'));
            names.put(hostPort.substring(hostPort.lastIndexOf(':') + 1), "<port" + i + ">");
            busNames.put(address.substring(address.indexOf('@') + 1), "<bus" + i + ">");
        }
    }

    private static int firstSlot(String[] fields) {
        return fields.length > 8 ? Integer.parseInt(fields[8].split("-")[0]) : Integer.MAX_VALUE;
    }

    /** The reply to a command, normalised as the class says. */
    String call(RespClient client, String... command) {
        RespValue reply = client.call(command);
        String name = (command[0] + (command.length > 1 ? " " + command[1] : "")).toUpperCase();
        return switch (name) {
            case "CLUSTER NODES" -> reply.type() + nodesText(reply.text());
            case "CLUSTER INFO" -> reply.type() + infoText(reply.text());
            case "CLUSTER SHARDS", "CLUSTER LINKS" -> inAnyOrder(reply);
            case "CLUSTER REPLICAS", "CLUSTER SLAVES" -> named(NODE_LINE_TIMES.matcher(reply.toString())
                    .replaceAll("$1 <time> <time> "));
            default -> named(reply.toString());
        };
    }

    /** An array whose elements Redis lists in hash table order: named, then sorted. */
    private String inAnyOrder(RespValue reply) {
        if (!reply.isAggregate()) {
            return named(reply.toString());
        }
        List<String> elements = new ArrayList<>();
        for (RespValue element : reply.children()) {
            elements.add(named(element.toString()));
        }
        elements.sort(null);
        return reply.type() + Integer.toString(elements.size()) + "\\r\\n" + String.join("", elements);
    }

    private String nodesText(String text) {
        String format = text.startsWith("txt:") ? "txt:" : ""; // RESP3's verbatim string
        text = text.substring(format.length());
        List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n")));
        List<String> normalised = new ArrayList<>();
        for (String line : lines) {
            String[] fields = line.split(" ");
            fields[4] = "<time>"; // ping sent
            fields[5] = "<time>"; // pong received
            normalised.add(named(String.join(" ", fields)));
        }
        normalised.sort(null); // Redis lists its nodes in hash table order, "myself" among them
        return format + String.join("\n", normalised) + "\n";
    }

    private static String infoText(String text) {
        StringBuilder kept = new StringBuilder();
        for (String line : text.split("\r\n")) {
            if (!line.startsWith("cluster_stats_messages_")) {
                kept.append(line).append("\r\n");
            }
        }
        return kept.toString();
    }

    /** IDs, ports and bus ports by name; times as {@code <time>}. */
    String named(String text) {
        String out = TIME_FIELD.matcher(text).replaceAll("$1<time>");
        out = BUFFER_FIELD.matcher(out).replaceAll("$1<buffer>");
        out = WRITING_LINK.matcher(out).replaceAll("$1" + Matcher.quoteReplacement("$1\\r\\nr"));
        out = OFFSET_FIELD.matcher(out).replaceAll("$1<offset>");
        out = BUS_PORT.matcher(out).replaceAll(bus -> "@" + Matcher.quoteReplacement(
                busNames.getOrDefault(bus.group(1), bus.group(1))));
        for (Map.Entry<String, String> name : names.entrySet()) {
            out = out.replaceAll("(?<![0-9a-f])" + Pattern.quote(name.getKey()) + "(?![0-9a-f])",
                    Matcher.quoteReplacement(name.getValue()));
        }
        return out;
    }
}
