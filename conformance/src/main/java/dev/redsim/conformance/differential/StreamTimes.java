package dev.redsim.conformance.differential;

import dev.redsim.conformance.resp.RespValue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The times in stream replies, which each server reads from its own clock: idle times (XPENDING's extended form,
 * XINFO CONSUMERS) and delivery and seen times (XINFO STREAM FULL). They are set to 0 before comparing; every other
 * part of those replies is compared as it is.
 */
final class StreamTimes {
    static final Set<String> COMMANDS = Set.of("XPENDING", "XINFO");
    private static final RespValue ZERO = RespValue.scalar(':', "0".getBytes(StandardCharsets.US_ASCII));

    private StreamTimes() {
    }

    static RespValue blank(RespValue reply) {
        if (reply.children() == null) {
            return reply;
        }
        List<RespValue> children = new ArrayList<>();
        for (RespValue child : reply.children()) {
            children.add(blank(child));
        }
        for (int i = 1; i < children.size(); i++) {
            String name = children.get(i - 1).children() == null ? children.get(i - 1).text() : null;
            if (isInteger(children.get(i)) && ("idle".equals(name) || "seen-time".equals(name))) {
                children.set(i, ZERO);
            }
        }
        // a pending entry: [id, consumer, time, deliveries] (XPENDING, a group's list) or [id, time, deliveries]
        if (children.size() == 4 && isId(children.get(0)) && !isInteger(children.get(1)) && isInteger(children.get(2))
                && isInteger(children.get(3))) {
            children.set(2, ZERO);
        } else if (children.size() == 3 && isId(children.get(0)) && isInteger(children.get(1))
                && isInteger(children.get(2))) {
            children.set(1, ZERO);
        }
        return RespValue.aggregate(reply.type(), children);
    }

    private static boolean isInteger(RespValue value) {
        return value.type() == ':';
    }

    private static boolean isId(RespValue value) {
        return value.children() == null && value.type() == '$' && value.text() != null && value.text().matches("\\d+-\\d+");
    }
}
