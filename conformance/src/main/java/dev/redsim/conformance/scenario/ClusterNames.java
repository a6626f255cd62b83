package dev.redsim.conformance.scenario;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The replies of a cluster's nodes with what differs between two clusters by nature named instead, so that a real
 * cluster's replies and the simulated one's compare byte for byte (and a recording holds on another day):
 * <ul>
 *   <li>node IDs become {@code <id0>}, ports {@code <port0>} (after a ':' in text, or a whole integer in a CLUSTER
 *   reply), cluster bus ports {@code <bus0>} (after an '@'), numbered by the node's place in slot order;</li>
 *   <li>the clocks and buffers of the cluster bus: CLUSTER NODES's ping-sent and pong-received fields, CLUSTER LINKS's
 *   create-time and send buffer sizes ({@code <time>}, {@code <buffer>}), CLUSTER LINKS's events "rw", which a link
 *   shows only while a bus message waits in its send buffer, read as the idle "r", CLUSTER INFO's message counters
 *   (dropped: Redis lists only the message types it has seen);</li>
 *   <li>CLUSTER SHARDS's replication offsets other than 0 ({@code <offset>}): they count the keepalive PINGs each
 *   master sends its replicas on its own schedule;</li>
 *   <li>the nodes that Redis lists in its hash table's order, whose order its random hash seed decides: the lines of
 *   CLUSTER NODES and the elements of CLUSTER SHARDS and CLUSTER LINKS are sorted.</li>
 * </ul>
 * Nothing else is touched.
 */
public final class ClusterNames {
    private static final Pattern NODE_ID = Pattern.compile("(?<![0-9a-f])[0-9a-f]{40}(?![0-9a-f])");
    private static final Pattern PORT = Pattern.compile("(?<=:)(\\d+)(?!\\d)");
    private static final Pattern BUS = Pattern.compile("(?<=@)(\\d+)(?!\\d)");
    private static final Set<String> TIME_FIELDS = Set.of("create-time");
    private static final Set<String> BUFFER_FIELDS = Set.of("send-buffer-allocated", "send-buffer-used");
    private static final String OFFSET_FIELD = "replication-offset";
    private static final String EVENTS_FIELD = "events";

    private final Map<String, String> ids = new HashMap<>();
    private final Map<String, String> ports = new HashMap<>();
    private final Map<String, String> buses = new HashMap<>();

    /**
     * Learns the names from the cluster's CLUSTER NODES; {@code masters} in slot order, then (if any) their replicas,
     * those of the first master first, which are named on from there ({@code <id3>} for the replica of node 0 in a
     * cluster of 3 masters).
     */
    public ClusterNames(List<RedisTarget> masters) {
        Map<Integer, Integer> indexByPort = new LinkedHashMap<>();
        for (int i = 0; i < masters.size(); i++) {
            indexByPort.put(masters.get(i).port(), i);
        }
        String nodes;
        try (RespClient client = new RespClient(masters.get(0).host(), masters.get(0).port())) {
            nodes = client.call("CLUSTER", "NODES").text();
        }
        for (String line : nodes.split("\n")) {
            String[] fields = line.split(" ");
            String address = fields[1].split(",")[0];
            int at = address.indexOf('@');
            int port = Integer.parseInt(address.substring(address.lastIndexOf(':', at) + 1, at));
            Integer index = indexByPort.get(port);
            if (index == null) {
                continue; // not a master of the list (a replica): left as it is
            }
            ids.put(fields[0], "<id" + index + ">");
            ports.put(Integer.toString(port), "<port" + index + ">");
            buses.put(address.substring(at + 1), "<bus" + index + ">");
        }
    }

    /** The reply to {@code command} (null for a push or a reply read with @recv) with the names in place. */
    public RespValue normalise(byte[][] command, RespValue reply) {
        String name = command == null || command.length == 0 ? "" : ascii(command[0]);
        String sub = command != null && command.length > 1 ? ascii(command[1]) : "";
        if (!name.equals("cluster")) {
            return named(reply, false);
        }
        return switch (sub) {
            case "nodes", "replicas", "slaves" -> nodesText(reply);
            case "info" -> infoText(reply);
            case "shards", "links" -> sortedElements(named(reply, true));
            default -> named(reply, true);
        };
    }

    private static String ascii(byte[] arg) {
        return new String(arg, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
    }

    /** Names every ID, port and bus port; in a CLUSTER reply also whole integers that are ports, and bus clocks. */
    private RespValue named(RespValue value, boolean clusterReply) {
        if (value.isAggregate()) {
            List<RespValue> children = new ArrayList<>();
            String previous = null;
            for (RespValue child : value.children()) {
                RespValue renamed = named(child, clusterReply);
                if (clusterReply && previous != null && child.type() == ':') {
                    if (TIME_FIELDS.contains(previous)) {
                        renamed = RespValue.scalar(':', bytes("<time>"));
                    } else if (BUFFER_FIELDS.contains(previous)) {
                        renamed = RespValue.scalar(':', bytes("<buffer>"));
                    } else if (OFFSET_FIELD.equals(previous) && child.asLong() != 0) {
                        // a shard with replicas counts its master's keepalive PINGs, sent on each server's schedule
                        renamed = RespValue.scalar(':', bytes("<offset>"));
                    }
                }
                if (clusterReply && EVENTS_FIELD.equals(previous) && child.data() != null && child.text().equals("rw")) {
                    // Redis drops a link's write handler once its send buffer is empty: "rw" is a message in flight
                    renamed = RespValue.scalar(child.type(), bytes("r"));
                }
                previous = child.data() != null && !child.isAggregate() ? child.text() : null;
                children.add(renamed);
            }
            return RespValue.aggregate(value.type(), children);
        }
        if (value.data() == null) {
            return value;
        }
        if (value.type() == ':') {
            String port = clusterReply ? ports.get(value.text()) : null;
            return port == null ? value : RespValue.scalar(':', bytes(port));
        }
        String text = new String(value.data(), StandardCharsets.ISO_8859_1);
        String renamed = replace(NODE_ID, text, ids);
        renamed = replace(PORT, renamed, ports);
        renamed = replace(BUS, renamed, buses);
        return renamed.equals(text) ? value : RespValue.scalar(value.type(), renamed.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static String replace(Pattern pattern, String text, Map<String, String> names) {
        Matcher m = pattern.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = names.get(m.group());
            m.appendReplacement(out, Matcher.quoteReplacement(name == null ? m.group() : name));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** CLUSTER NODES (and REPLICAS): each line's ping-sent and pong-received as {@code <time>}, the lines sorted. */
    private RespValue nodesText(RespValue reply) {
        if (reply.isAggregate()) {
            List<RespValue> lines = new ArrayList<>();
            for (RespValue line : reply.children()) {
                lines.add(nodesText(line));
            }
            return RespValue.aggregate(reply.type(), lines);
        }
        if (reply.isError() || reply.data() == null) {
            return named(reply, true);
        }
        String text = reply.text();
        String format = reply.type() == '=' ? text.substring(0, 4) : ""; // RESP3's verbatim "txt:"
        List<String> lines = new ArrayList<>(Arrays.asList(text.substring(format.length()).split("\n")));
        for (int i = 0; i < lines.size(); i++) {
            String[] fields = lines.get(i).split(" ");
            if (fields.length > 5) {
                fields[4] = "<time>";
                fields[5] = "<time>";
            }
            lines.set(i, String.join(" ", fields));
        }
        String joined = format + String.join("\n", lines) + (text.endsWith("\n") ? "\n" : "");
        RespValue renamed = named(RespValue.scalar(reply.type(), joined.getBytes(StandardCharsets.UTF_8)), true);
        List<String> sorted = new ArrayList<>(Arrays.asList(renamed.text().substring(format.length()).split("\n")));
        sorted.sort(null);
        String out = format + String.join("\n", sorted) + (text.endsWith("\n") ? "\n" : "");
        return RespValue.scalar(reply.type(), out.getBytes(StandardCharsets.UTF_8));
    }

    private RespValue infoText(RespValue reply) {
        if (reply.isError() || reply.data() == null) {
            return named(reply, true);
        }
        StringBuilder kept = new StringBuilder();
        for (String line : reply.text().split("(?<=\r\n)")) {
            if (!line.startsWith("cluster_stats_messages_")) {
                kept.append(line);
            }
        }
        return named(RespValue.scalar(reply.type(), kept.toString().getBytes(StandardCharsets.UTF_8)), true);
    }

    private static RespValue sortedElements(RespValue reply) {
        if (!reply.isAggregate()) {
            return reply;
        }
        List<RespValue> elements = new ArrayList<>(reply.children());
        elements.sort(Comparator.comparing(RespValue::toString));
        return RespValue.aggregate(reply.type(), elements);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
