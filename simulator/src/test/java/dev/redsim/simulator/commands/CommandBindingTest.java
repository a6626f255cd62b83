package dev.redsim.simulator.commands;

import dev.redsim.simulator.command.CommandCatalog;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.command.CommandTable;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Handlers and the command table resource agree: every handler is bound to a command Redis reports (binding
 * one to another name fails when the table is built), and every implemented entry has a handler to run.
 */
class CommandBindingTest {
    @Test
    void everyImplementedEntryRunsAHandler() {
        CommandTable table = new CommandTable();
        CommandFamilies.registerAll(table); // throws for a handler bound to a name Redis does not report
        List<String> missing = new ArrayList<>();
        for (CommandSpec spec : table.all()) {
            // A container without a handler of its own is fine only when Redis's arity forbids a bare call.
            if (spec.handler() == null && (!spec.hasSubcommands() || spec.arityAccepts(1))) {
                missing.add(spec.fullName());
            }
            for (CommandSpec sub : spec.subcommands().values()) {
                if (sub.handler() == null) {
                    missing.add(sub.fullName());
                }
            }
            assertThat(spec.description()).isSameAs(table.catalog().describe(spec.fullName()));
        }
        assertThat(missing).as("implemented entries without a handler").isEmpty();
        assertThat(table.size()).isGreaterThan(150);
    }

    @Test
    void aHandlerForACommandRedisDoesNotHaveIsRefused() {
        CommandTable table = new CommandTable(CommandCatalog.redis70());
        assertThatThrownBy(() -> table.handler("nosuch", ctx -> { })).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("nosuch");
        assertThatThrownBy(() -> table.handler("config|nosuch", ctx -> { })).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aHandlerBoundTwiceIsRefused() {
        CommandTable table = new CommandTable();
        table.handler("get", ctx -> { });
        table.handler("config|get", ctx -> { });
        assertThatThrownBy(() -> table.handler("get", ctx -> { })).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> table.handler("config|get", ctx -> { })).isInstanceOf(IllegalStateException.class);
    }
}
