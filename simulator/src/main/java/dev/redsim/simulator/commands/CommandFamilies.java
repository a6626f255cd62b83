package dev.redsim.simulator.commands;

import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;

import java.util.List;

/** Every command family of the simulator; the command table is built from this list. */
public final class CommandFamilies {
    private CommandFamilies() {
    }

    public static List<CommandFamily> all() {
        return List.of(
                new ConnectionCommands(),
                new ClientCommands(),
                new ServerCommands(),
                new InfoCommand(),
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
                new ScriptingCommands(),
                new FunctionCommands());
    }

    public static void registerAll(CommandTable table) {
        for (CommandFamily family : all()) {
            family.register(table);
        }
    }
}
