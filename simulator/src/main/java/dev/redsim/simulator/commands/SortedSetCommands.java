package dev.redsim.simulator.commands;

import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;

/** Placeholder: this family's commands are being written (see the open issue for the simulator core). */
public final class SortedSetCommands implements CommandFamily {
    @Override
    public void register(CommandTable table) {
    }
}
