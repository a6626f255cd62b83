package dev.redsim.simulator.commands;

import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;

/** Placeholder: this family's commands are being written (see the open issue for the simulator core). */
public final class ClientCommands implements CommandFamily {
    /** CLIENT SETNAME and HELLO SETNAME refuse names with spaces, newlines or non-printable characters. */
    static void validateName(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '!' || c > '~') {
                throw new dev.redsim.simulator.command.RedisError("ERR Client names cannot contain spaces, newlines or special characters.");
            }
        }
    }

    @Override
    public void register(CommandTable table) {
    }
}
