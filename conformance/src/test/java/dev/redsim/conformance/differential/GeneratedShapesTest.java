package dev.redsim.conformance.differential;

import dev.redsim.conformance.property.Gen;
import dev.redsim.simulator.command.CommandCatalog;
import dev.redsim.simulator.command.CommandDescription;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.commands.CommandFamilies;
import dev.redsim.simulator.command.KeySearch;
import dev.redsim.simulator.command.KeyRef;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The differential families write their calls by hand (which options, which values make errors happen); the
 * command table says what Redis takes. Every generated call must name a Redis command and, where its arity
 * fits, hold a key from the key vocabulary exactly at the positions Redis's key specs name as keys, so a
 * history does not quietly stop exercising keys (or aim keys at non-key arguments) when a generator changes.
 */
class GeneratedShapesTest {
    private static final CommandCatalog TABLE = CommandCatalog.redis70();
    /** Calls that are wrong on purpose (errors are compared too). */
    private static final Set<String> DELIBERATELY_UNKNOWN = Set.of("nosuchcommand");
    private static final Set<String> KEYS = Set.of("k1", "k2", "k3", "{k}4");
    private static final CommandTable BOUND = boundTable();

    private static CommandTable boundTable() {
        CommandTable table = new CommandTable();
        CommandFamilies.registerAll(table);
        return table;
    }

    @Test
    void generatedCallsHaveKeysWhereRedisKeySpecsSay() {
        Set<String> problems = new TreeSet<>();
        Set<String> checked = new TreeSet<>();
        SplittableRandom random = new SplittableRandom(12);
        for (Family family : Family.values()) {
            for (Gen<String[]> gen : family.calls()) {
                for (int sample = 0; sample < 40; sample++) {
                    check(gen.next(random), family, problems, checked);
                }
            }
        }
        assertThat(checked).as("commands whose keys were checked").hasSizeGreaterThan(100);
        assertThat(problems).as("generated calls that do not fit the command table").isEmpty();
    }

    private static void check(String[] call, Family family, Set<String> problems, Set<String> checked) {
        String name = call[0].toLowerCase();
        if (DELIBERATELY_UNKNOWN.contains(name)) {
            return;
        }
        CommandDescription command = TABLE.describe(name);
        if (command == null) {
            problems.add(family + ": " + name + " is not a Redis command");
            return;
        }
        if (!command.subcommands().isEmpty() && call.length > 1) {
            command = TABLE.describe(name + "|" + call[1]);
            if (command == null) {
                problems.add(family + ": " + String.join(" ", call) + " names no subcommand");
                return;
            }
        }
        int arity = command.arity();
        if (arity > 0 ? call.length != arity : call.length < -arity) {
            return; // a wrong number of arguments on purpose (Redis's arity error is compared)
        }
        // Where Redis keeps a key procedure because the specs cannot say it all (SORT's STORE, BITFIELD's flags),
        // the simulator's binding of it speaks for Redis: its replies to COMMAND GETKEYS are compared with Redis's.
        CommandSpec bound = BOUND.lookupFullName(command.fullName());
        List<KeyRef> keys = bound != null ? bound.keys(bytes(call)) : KeySearch.find(command.keySpecs(), bytes(call));
        if (keys == null) {
            return; // a key count that does not fit, on purpose
        }
        checked.add(command.fullName());
        List<Integer> keyPositions = new ArrayList<>();
        for (KeyRef key : keys) {
            keyPositions.add(key.index());
            if (!KEYS.contains(call[key.index()])) {
                problems.add(family + ": " + String.join(" ", call) + ": argument " + key.index() + " is a key to Redis");
            }
        }
        if (family == Family.SCRIPTING || family == Family.MIXED) {
            return; // scripts get key names as ARGV too
        }
        for (int i = 1; i < call.length; i++) {
            if (KEYS.contains(call[i]) && !keyPositions.contains(i)) {
                problems.add(family + ": " + String.join(" ", call) + ": argument " + i + " is no key to Redis");
            }
        }
    }

    private static byte[][] bytes(String[] call) {
        byte[][] args = new byte[call.length][];
        for (int i = 0; i < call.length; i++) {
            args[i] = call[i].getBytes(StandardCharsets.UTF_8);
        }
        return args;
    }
}
