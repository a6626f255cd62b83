package dev.redsim.simulator.commands.streams;

import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.keyspace.StreamId;

import java.util.Map;

/** How stream entries are written in replies: [id, [field, value, ...]], in RESP2 and RESP3 alike. */
final class StreamReplies {
    private StreamReplies() {
    }

    static void entry(Reply reply, StreamId id, byte[][] fieldsAndValues) {
        reply.array(2);
        reply.bulk(id.bytes());
        reply.array(fieldsAndValues.length);
        for (byte[] element : fieldsAndValues) {
            reply.bulk(element);
        }
    }

    static void entry(Reply reply, Map.Entry<StreamId, byte[][]> entry) {
        entry(reply, entry.getKey(), entry.getValue());
    }

    static void id(Reply reply, StreamId id) {
        reply.bulk(id.bytes());
    }
}
