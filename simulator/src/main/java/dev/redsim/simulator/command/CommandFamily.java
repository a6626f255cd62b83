package dev.redsim.simulator.command;

/** A group of commands (strings, lists, ...) that adds its entries to the command table. */
public interface CommandFamily {
    void register(CommandTable table);
}
