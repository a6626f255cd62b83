package dev.redsim.simulator.commands;

import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.scripting.Scripting;

import java.util.List;

/** Every command family of the simulator; the command table is built from this list. */
public final class CommandFamilies {
    private CommandFamilies() {
    }

    /** @param scripting the server's Lua runtime, which EVAL, FCALL and INFO use */
    public static List<CommandFamily> all(Scripting scripting) {
        return List.of(
                new ConnectionCommands(),
                new ClientCommands(),
                new ServerCommands(),
                new InfoCommand(scripting),
                new ConfigCommands(),
                new CommandCommands(),
                new DebugCommands(),
                new MemoryCommands(),
                new KeyCommands(),
                new StringCommands(),
                new StringExpiryCommands(),
                new StringFloatCommands(),
                new StringRangeCommands(),
                new LcsCommands(),
                new BitCommands(),
                new BitOpCommands(),
                new ListCommands(),
                new BlockingListCommands(),
                new HashCommands(),
                new SetCommands(),
                new SortedSetCommands(),
                new BlockingSortedSetCommands(),
                new TransactionCommands(),
                new PubSubCommands(),
                new ScriptingCommands(scripting),
                new FunctionCommands(scripting));
    }

    public static void registerAll(CommandTable table, Scripting scripting) {
        for (CommandFamily family : all(scripting)) {
            family.register(table);
        }
    }

    /** Binds every handler without a Lua runtime: for a table that is read (bindings, docs), never run. */
    public static void registerAll(CommandTable table) {
        registerAll(table, null);
    }
}
