package dev.redsim.conformance.contracts.rescue;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The stored keys of a queue, read raw with the kit's client and compared with what the model implies under the
 * key layout of docs/contracts/rescue.md: each task's hash (field {@code <section>:<label key>}), the label
 * indexes ({@code idx:<section>:<len>:<key>=<value>}, {@code key:<section>:<len>:<key>}), the id set {@code all},
 * the state sorted sets ({@code available}, {@code uni:<worker>}, {@code broadcast}, {@code owned} by expiry,
 * {@code cron} by next tick, {@code retention} by deadline) and the delivery sets {@code seen:<id>}. Comparing
 * only what the implementation's own list() reads back would miss an index or a state set out of step with the
 * hashes. Only for implementations that use this layout ({@link RescueSubject#rawLayout()}); the id counter
 * ({@code seq}) and the positions kept for broadcast search ({@code broadcast:last}, {@code cursor:<worker>}) are
 * left out: the deliveries they lead to are compared ({@code seen:<id>}).
 */
final class RawRescueKeys {
    private RawRescueKeys() {
    }

    /** @return why the keys differ from the model, or null */
    static String difference(RespClient raw, RescueModel model) {
        Map<String, String> expected = expected(model);
        Map<String, String> actual = actual(raw);
        if (expected.equals(actual)) {
            return null;
        }
        Set<String> keys = new TreeSet<>(expected.keySet());
        keys.addAll(actual.keySet());
        StringBuilder out = new StringBuilder("raw keys differ from the model:");
        for (String k : keys) {
            String e = expected.get(k);
            String a = actual.get(k);
            if (!java.util.Objects.equals(e, a)) {
                out.append("\n  ").append(k).append(": expected ").append(e).append(", actual ").append(a);
            }
        }
        return out.toString();
    }

    private static Map<String, String> expected(RescueModel model) {
        Map<String, Map<String, String>> hashes = new TreeMap<>();
        Map<String, Set<String>> sets = new TreeMap<>();
        Map<String, Map<String, Long>> zsets = new TreeMap<>();
        for (RescueTask t : model.tasks()) {
            String id = t.core().get(RescueTask.OBJECT);
            long n = Long.parseLong(id);
            Map<String, String> hash = new TreeMap<>();
            sections(t).forEach((section, labels) -> labels.forEach((k, v) -> {
                hash.put(section + ":" + k, v);
                sets.computeIfAbsent("idx:" + section + ":" + k.length() + ":" + k + "=" + v, x -> new TreeSet<>()).add(id);
                sets.computeIfAbsent("key:" + section + ":" + k.length() + ":" + k, x -> new TreeSet<>()).add(id);
            }));
            hashes.put("task:" + id, hash);
            sets.computeIfAbsent("all", x -> new TreeSet<>()).add(id);
            String method = t.node().getOrDefault(RescueTask.METHOD, "any");
            if (!t.cron().isEmpty()) {
                zset(zsets, "cron", id, Instant.parse(t.cron().get(RescueTask.TICK_NEXT)).toEpochMilli());
            } else if (t.isTemplate()) {
                // gate templates live in their label indexes only
            } else if (method.equals("all")) {
                zset(zsets, "broadcast", id, n);
                Set<String> seen = model.deliveredTo(n);
                if (!seen.isEmpty()) {
                    sets.put("seen:" + id, new TreeSet<>(seen));
                }
            } else if (model.ownedUntil(n) != null) {
                zset(zsets, "owned", id, model.ownedUntil(n));
            } else if (method.equals("uni")) {
                zset(zsets, "uni:" + t.node().get(RescueTask.WORKER), id, n);
            } else {
                zset(zsets, "available", id, n);
            }
            if (model.retainedUntil(n) != null) {
                zset(zsets, "retention", id, model.retainedUntil(n));
            }
        }
        Map<String, String> out = new TreeMap<>();
        hashes.forEach((k, v) -> out.put(k, "hash " + v));
        sets.forEach((k, v) -> out.put(k, "set " + v));
        zsets.forEach((k, v) -> out.put(k, "zset " + v));
        return out;
    }

    private static void zset(Map<String, Map<String, Long>> zsets, String key, String member, long score) {
        zsets.computeIfAbsent(key, x -> new TreeMap<>()).put(member, score);
    }

    private static Map<String, Map<String, String>> sections(RescueTask t) {
        Map<String, Map<String, String>> out = new TreeMap<>();
        out.put("core", t.core());
        out.put("cron", t.cron());
        out.put("gate", t.gate());
        out.put("meta", t.meta());
        out.put("node", t.node());
        out.put("root", t.root());
        out.put("sync", t.sync());
        return out;
    }

    /** Three round trips whatever the number of keys: KEYS, then every TYPE pipelined, then every read. */
    private static Map<String, String> actual(RespClient raw) {
        List<String> keys = raw.call("KEYS", "{rescue:*").children().stream().map(RespValue::text)
            .filter(k -> !k.endsWith("}:seq") && !k.endsWith("}:broadcast:last") && !k.contains("}:cursor:")).toList();
        for (String key : keys) {
            raw.send(bytes("TYPE"), bytes(key));
        }
        List<String> types = keys.stream().map(k -> raw.read().text()).toList();
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            switch (types.get(i)) {
                case "hash" -> raw.send(bytes("HGETALL"), bytes(key));
                case "set" -> raw.send(bytes("SMEMBERS"), bytes(key));
                case "zset" -> raw.send(bytes("ZRANGE"), bytes(key), bytes("0"), bytes("-1"), bytes("WITHSCORES"));
                default -> raw.send(bytes("TYPE"), bytes(key));
            }
        }
        Map<String, String> out = new TreeMap<>();
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            String name = key.substring(key.indexOf("}:") + 2);
            List<RespValue> flat = raw.read().children();
            switch (types.get(i)) {
                case "hash" -> {
                    Map<String, String> m = new TreeMap<>();
                    for (int j = 0; j + 1 < flat.size(); j += 2) {
                        m.put(flat.get(j).text(), flat.get(j + 1).text());
                    }
                    out.put(name, "hash " + m);
                }
                case "set" -> {
                    Set<String> set = new TreeSet<>();
                    flat.forEach(v -> set.add(v.text()));
                    out.put(name, "set " + set);
                }
                case "zset" -> {
                    Map<String, Long> m = new TreeMap<>();
                    for (int j = 0; j + 1 < flat.size(); j += 2) {
                        m.put(flat.get(j).text(), (long) Double.parseDouble(flat.get(j + 1).text()));
                    }
                    out.put(name, "zset " + m);
                }
                default -> out.put(name, types.get(i) + " (unexpected)");
            }
        }
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
