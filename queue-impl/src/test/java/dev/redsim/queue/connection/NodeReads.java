package dev.redsim.queue.connection;

import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

import java.util.ArrayList;
import java.util.List;

/** What a racing run reads from one node over a plain connection: its error count, a tag's keys. */
final class NodeReads {
    private NodeReads() {
    }

    /** Error replies the node has sent so far (INFO stats: MOVED, ASK, TRYAGAIN and refused scripts count). */
    static long errorReplies(String address) {
        HostAndPort node = HostAndPort.from(address);
        try (Jedis jedis = new Jedis(node.getHost(), node.getPort())) {
            for (String line : jedis.info("stats").split("\r\n")) {
                if (line.startsWith("total_error_replies:")) {
                    return Long.parseLong(line.substring(line.indexOf(':') + 1));
                }
            }
        }
        throw new IllegalStateException("no total_error_replies in INFO stats of " + address);
    }

    /** Every key of the tag on the node (SCAN of the tag's keys; on a replica, its copy). */
    static List<String> keysOn(String address, String tag) {
        HostAndPort node = HostAndPort.from(address);
        List<String> keys = new ArrayList<>();
        try (Jedis jedis = new Jedis(node.getHost(), node.getPort())) {
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> page = jedis.scan(cursor, new ScanParams().match("*{" + tag + "}*").count(100));
                keys.addAll(page.getResult());
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        }
        return keys;
    }
}
