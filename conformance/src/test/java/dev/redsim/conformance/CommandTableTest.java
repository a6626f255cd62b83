package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulator's command table against the real server's: for every command and subcommand the simulator
 * implements, COMMAND INFO and COMMAND DOCS must equal Redis 7.0's reply, type for type, in RESP2 and RESP3
 * (name, arity, flags, key positions, ACL categories, tips, key specs; summary, since, group, complexity, doc
 * flags, history, arguments). Two declared differences: a container lists only the subcommands the simulator
 * implements (a client must not be told about subcommands that answer "unknown"), and subcommands are compared
 * in name order (Redis lists them in its dictionary's hash order, which changes from run to run).
 */
class CommandTableTest {
    @ParameterizedTest(name = "RESP{0}")
    @ValueSource(ints = {2, 3})
    void everyImplementedCommandDescribesItselfLikeRedis(int protocol) {
        RedisTarget reference = SharedTargets.reference();
        RedisTarget simulator = SharedTargets.simulator();
        List<String> differences = new ArrayList<>();
        try (RespClient redis = client(reference, protocol); RespClient sim = client(simulator, protocol)) {
            for (String name : commandNames(sim)) {
                Set<String> implemented = subcommandNames(sim, name);
                RespValue ours = sim.call("COMMAND", "INFO", name).children().get(0);
                RespValue theirs = redis.call("COMMAND", "INFO", name).children().get(0);
                if (theirs.children() == null) {
                    differences.add(name + ": not a Redis 7.0 command");
                    continue;
                }
                RespValue want = infoWithSubcommands(theirs, implemented);
                RespValue got = infoWithSubcommands(ours, implemented);
                if (!want.equals(got)) {
                    differences.add(name + "\n    redis:     " + want + "\n    simulator: " + got);
                }
            }
        }
        assertThat(differences).as("COMMAND INFO differences").isEmpty();
    }

    @ParameterizedTest(name = "RESP{0}")
    @ValueSource(ints = {2, 3})
    void everyImplementedCommandIsDocumentedLikeRedis(int protocol) {
        RedisTarget reference = SharedTargets.reference();
        RedisTarget simulator = SharedTargets.simulator();
        List<String> differences = new ArrayList<>();
        try (RespClient redis = client(reference, protocol); RespClient sim = client(simulator, protocol)) {
            for (String name : commandNames(sim)) {
                Set<String> implemented = subcommandNames(sim, name);
                RespValue want = docsWithSubcommands(redis.call("COMMAND", "DOCS", name), implemented);
                RespValue got = docsWithSubcommands(sim.call("COMMAND", "DOCS", name), implemented);
                if (!want.equals(got)) {
                    differences.add(name + "\n    redis:     " + want + "\n    simulator: " + got);
                }
            }
        }
        assertThat(differences).as("COMMAND DOCS differences").isEmpty();
    }

    private static RespClient client(RedisTarget target, int protocol) {
        RespClient client = new RespClient(target.host(), target.port());
        if (protocol == 3) {
            client.call("HELLO", "3");
        }
        return client;
    }

    /** Top-level names the simulator lists (COMMAND LIST lists subcommands too; they are compared inside their container). */
    private static List<String> commandNames(RespClient client) {
        List<String> names = new ArrayList<>();
        for (RespValue name : client.call("COMMAND", "LIST").children()) {
            if (!name.text().contains("|")) {
                names.add(name.text());
            }
        }
        names.sort(null);
        assertThat(names).as("the simulator's COMMAND LIST").hasSizeGreaterThan(150);
        return names;
    }

    private static Set<String> subcommandNames(RespClient client, String container) {
        Set<String> names = new TreeSet<>();
        for (RespValue name : client.call("COMMAND", "LIST", "FILTERBY", "PATTERN", container + "|*").children()) {
            names.add(name.text());
        }
        return names;
    }

    /** A COMMAND INFO entry whose subcommand entries (the 10th element) are the implemented ones, by name. */
    private static RespValue infoWithSubcommands(RespValue info, Set<String> implemented) {
        List<RespValue> fields = new ArrayList<>(info.children());
        RespValue subcommands = fields.get(9);
        List<RespValue> kept = new ArrayList<>();
        for (RespValue sub : subcommands.children()) {
            if (implemented.contains(sub.children().get(0).text())) {
                kept.add(sub);
            }
        }
        kept.sort(Comparator.comparing(sub -> sub.children().get(0).text()));
        fields.set(9, RespValue.aggregate(subcommands.type(), kept));
        return RespValue.aggregate(info.type(), fields);
    }

    /**
     * A COMMAND DOCS reply ({name: {field: value, ...}}, a flat array in RESP2) whose "subcommands" field holds
     * the implemented subcommands, by name.
     */
    private static RespValue docsWithSubcommands(RespValue docs, Set<String> implemented) {
        if (docs.children().isEmpty()) {
            return docs;
        }
        RespValue doc = docs.children().get(1);
        List<RespValue> fields = new ArrayList<>(doc.children());
        for (int i = 0; i + 1 < fields.size(); i += 2) {
            if (fields.get(i).text().equals("subcommands")) {
                fields.set(i + 1, pairsNamed(fields.get(i + 1), implemented));
            }
        }
        return RespValue.aggregate(docs.type(), List.of(docs.children().get(0),
                RespValue.aggregate(doc.type(), fields)));
    }

    private static RespValue pairsNamed(RespValue map, Set<String> names) {
        List<List<RespValue>> pairs = new ArrayList<>();
        for (int i = 0; i + 1 < map.children().size(); i += 2) {
            if (names.contains(map.children().get(i).text())) {
                pairs.add(List.of(map.children().get(i), map.children().get(i + 1)));
            }
        }
        pairs.sort(Comparator.comparing(pair -> pair.get(0).text()));
        List<RespValue> flat = new ArrayList<>();
        pairs.forEach(flat::addAll);
        return RespValue.aggregate(map.type(), flat);
    }
}
