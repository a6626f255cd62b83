package dev.redsim.simulator.commands.streams;

import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;

/** The stream commands of t_stream.c, by aspect. */
public final class StreamCommands implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        new StreamAddCommands().register(t);
        new StreamRangeCommands().register(t);
        new StreamReadCommands().register(t);
        new StreamGroupCommands().register(t);
        new StreamPendingCommands().register(t);
        new StreamClaimCommands().register(t);
        new StreamInfoCommands().register(t);
    }
}
