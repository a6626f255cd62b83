package dev.redsim.conformance.replication;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every key of a server as comparable text, through commands only (SCAN, TYPE, and the type's own read): a master
 * and its replica hold the same data when their snapshots are equal. Unordered types are read sorted; a stream by
 * XRANGE and XINFO GROUPS. A TTL is kept as "has one or not" and compared in {@link #ttlsClose}: the two servers
 * compute remaining time from their own clocks.
 */
final class DataSnapshot {
    final Map<String, String> values = new TreeMap<>();
    final Map<String, Long> expiresAt = new TreeMap<>();

    static DataSnapshot of(RespClient client, int databases) {
        DataSnapshot snapshot = new DataSnapshot();
        for (int db = 0; db < databases; db++) {
            client.call("SELECT", Integer.toString(db));
            String cursor = "0";
            List<String> keys = new ArrayList<>();
            do {
                RespValue page = client.call("SCAN", cursor, "COUNT", "1000");
                cursor = page.children().get(0).text();
                for (RespValue key : page.children().get(1).children()) {
                    keys.add(key.text());
                }
            } while (!cursor.equals("0"));
            for (String key : keys) {
                String type = client.call("TYPE", key).text();
                if (type.equals("none")) {
                    continue; // expired between SCAN and TYPE
                }
                String name = db + ":" + key;
                snapshot.values.put(name, type + " " + read(client, type, key));
                long pexpireTime = client.call("PEXPIRETIME", key).asLong();
                if (pexpireTime >= 0) {
                    snapshot.expiresAt.put(name, pexpireTime);
                }
            }
        }
        client.call("SELECT", "0");
        return snapshot;
    }

    private static String read(RespClient client, String type, String key) {
        return switch (type) {
            case "string" -> client.call("GET", key).toString();
            case "list" -> client.call("LRANGE", key, "0", "-1").toString();
            case "set" -> client.call("SMEMBERS", key).sorted().toString();
            case "zset" -> client.call("ZRANGE", key, "0", "-1", "WITHSCORES").toString();
            case "hash" -> fieldsAndValues(client.call("HGETALL", key));
            case "stream" -> client.call("XRANGE", key, "-", "+") + " " + client.call("XINFO", "GROUPS", key);
            default -> "?";
        };
    }

    private static String fieldsAndValues(RespValue flat) {
        TreeMap<String, String> pairs = new TreeMap<>();
        for (int i = 0; i + 1 < flat.children().size(); i += 2) {
            pairs.put(flat.children().get(i).text(), flat.children().get(i + 1).text());
        }
        return pairs.toString();
    }

    /** Same keys with a TTL on both sides, and expiry times within {@code toleranceMs} of each other. */
    boolean ttlsClose(DataSnapshot other, long toleranceMs) {
        if (!expiresAt.keySet().equals(other.expiresAt.keySet())) {
            return false;
        }
        for (var entry : expiresAt.entrySet()) {
            if (Math.abs(entry.getValue() - other.expiresAt.get(entry.getKey())) > toleranceMs) {
                return false;
            }
        }
        return true;
    }
}
