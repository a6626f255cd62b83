package dev.redsim.conformance.scenario;

import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.SimulatedClusterTarget;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What ClusterNames does to a CLUSTER LINKS reply: the peer's ID named, the clocks and buffers named, and a link's
 * events "rw" (a real node's write event while a bus message waits to be sent) read as the idle "r"; the same text
 * outside a link's events, or in another command's reply, stays as it is.
 */
class ClusterNamesTest {
    private static RespValue bulk(String text) {
        return RespValue.scalar('$', text.getBytes(StandardCharsets.UTF_8));
    }

    private static RespValue integer(long value) {
        return RespValue.scalar(':', Long.toString(value).getBytes(StandardCharsets.US_ASCII));
    }

    private static RespValue link(String direction, String node, String events) {
        return RespValue.aggregate('*', List.of(bulk("direction"), bulk(direction), bulk("node"), bulk(node),
                bulk("create-time"), integer(1700000000123L), bulk("events"), bulk(events),
                bulk("send-buffer-allocated"), integer(4512), bulk("send-buffer-used"), integer(0)));
    }

    private static byte[][] command(String... args) {
        byte[][] out = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            out[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return out;
    }

    @Test
    void aLinkWritingAMessageReadsAsAnIdleOne() {
        try (SimulatedClusterTarget cluster = new SimulatedClusterTarget(3)) {
            ClusterNames names = new ClusterNames(cluster.masters());
            String peer = cluster.cluster().nodeId(1);
            RespValue links = RespValue.aggregate('*', List.of(link("to", peer, "rw"), link("from", peer, "r")));
            RespValue named = names.normalise(command("CLUSTER", "LINKS"), links);
            // sorted by their text, as every CLUSTER LINKS reply is: "to" (a bulk of 2) before "from" (of 4)
            RespValue expected = RespValue.aggregate('*', List.of(namedLink("to"), namedLink("from")));
            assertThat(named.toString()).isEqualTo(expected.toString());
            RespValue notALink = RespValue.aggregate('*', List.of(bulk("events"), bulk("rw")));
            assertThat(names.normalise(command("LRANGE", "k", "0", "-1"), notALink).toString())
                    .isEqualTo(notALink.toString());
        }
    }

    private static RespValue namedLink(String direction) {
        return RespValue.aggregate('*', List.of(bulk("direction"), bulk(direction), bulk("node"), bulk("<id1>"),
                bulk("create-time"), RespValue.scalar(':', "<time>".getBytes(StandardCharsets.US_ASCII)),
                bulk("events"), bulk("r"),
                bulk("send-buffer-allocated"), RespValue.scalar(':', "<buffer>".getBytes(StandardCharsets.US_ASCII)),
                bulk("send-buffer-used"), RespValue.scalar(':', "<buffer>".getBytes(StandardCharsets.US_ASCII))));
    }
}
