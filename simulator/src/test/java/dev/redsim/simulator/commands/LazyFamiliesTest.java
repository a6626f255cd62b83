package dev.redsim.simulator.commands;

import dev.redsim.simulator.cluster.ClusterState;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.command.KeyRef;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The families are declared by name and bound on first use (decision 0026): the names each declares are exactly the
 * ones its registration binds, a declared table is the eager table's twin, and nothing is bound until needed.
 */
class LazyFamiliesTest {
    @Test
    void eachFamilyDeclaresExactlyTheCommandsItBinds() {
        List<Map.Entry<String, List<String>>> declarations = CommandFamilies.declarations();
        List<CommandFamily> families = CommandFamilies.all(null, null, new ClusterState());
        assertThat(families).hasSameSizeAs(declarations);
        for (int i = 0; i < families.size(); i++) {
            CommandTable alone = new CommandTable();
            families.get(i).register(alone);
            assertThat(families.get(i).getClass().getSimpleName()).isEqualTo(declarations.get(i).getKey());
            assertThat(boundNames(alone)).as(declarations.get(i).getKey())
                    .isEqualTo(new TreeSet<>(declarations.get(i).getValue()));
        }
    }

    @Test
    void aDeclaredTableListsWhatTheEagerTableListsAndBindsNothingUntilAsked() {
        CommandTable eager = new CommandTable();
        CommandFamilies.registerAll(eager);
        CommandTable declared = declaredTable();
        List<String> eagerEntries = entries(eager);
        assertThat(entries(declared)).isEqualTo(eagerEntries).hasSizeGreaterThan(300);
        assertThat(declared.boundFamilies()).as("listing the table binds no family").isEmpty();

        assertThat(declared.lookup("get").handler()).isNotNull();
        assertThat(declared.boundFamilies()).containsExactly("StringCommands");
        assertThat(declared.lookupFullName("config|get").handler()).isNotNull();
        assertThat(declared.boundFamilies()).containsExactlyInAnyOrder("StringCommands", "ConfigCommands");
        assertThat(boundNames(declared)).isEqualTo(boundNames(eager)); // every handler binds, through its family
    }

    @Test
    void aKeyProcedureComesWithItsFamilyBeforeAnyHandlerRuns() {
        CommandTable declared = declaredTable();
        // SET's keys depend on GET (a key procedure of StringCommands, not the key specs alone)
        byte[][] args = {bytes("set"), bytes("k"), bytes("v"), bytes("get")};
        List<KeyRef> lazily = declared.lookup("set").keys(args);
        CommandTable eager = new CommandTable();
        CommandFamilies.registerAll(eager);
        assertThat(lazily).isEqualTo(eager.lookup("set").keys(args));
        assertThat(declared.boundFamilies()).containsExactly("StringCommands");
    }

    @Test
    void aFamilyThatBindsWhatItDidNotDeclareFails() {
        CommandTable table = new CommandTable();
        table.declare("Strays", List.of("get"), () -> t -> {
            t.handler("get", ctx -> { });
            t.handler("set", ctx -> { });
        });
        assertThatThrownBy(() -> table.lookup("get").handler()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'set'");
        CommandTable short_ = new CommandTable();
        short_.declare("Short", List.of("get", "mget"), () -> t -> t.handler("get", ctx -> { }));
        assertThatThrownBy(() -> short_.lookup("mget").handler()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'mget'");
    }

    private static CommandTable declaredTable() {
        CommandTable table = new CommandTable();
        CommandFamilies.declareAll(table, null, null, new ClusterState());
        return table;
    }

    /** Every entry's full name, arity and whether it is a container, in table order. */
    private static List<String> entries(CommandTable table) {
        List<String> result = new ArrayList<>();
        for (CommandSpec spec : table.all()) {
            result.add(spec.fullName() + "/" + spec.arity() + "/" + spec.hasSubcommands());
            for (CommandSpec sub : spec.subcommands().values()) {
                result.add(sub.fullName() + "/" + sub.arity());
            }
        }
        return result;
    }

    /** The names with a handler (a container's own handler under the container's name). */
    private static Set<String> boundNames(CommandTable table) {
        Set<String> names = new TreeSet<>();
        for (CommandSpec spec : table.all()) {
            if (spec.handler() != null) {
                names.add(spec.fullName());
            }
            for (CommandSpec sub : spec.subcommands().values()) {
                if (sub.handler() != null) {
                    names.add(sub.fullName());
                }
            }
        }
        return names;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
