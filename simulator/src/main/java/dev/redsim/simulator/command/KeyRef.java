package dev.redsim.simulator.command;

import java.util.List;

/** One key of a concrete call: its argument index and the access flags of its key spec ("RW", "access", ...). */
public record KeyRef(int index, List<String> flags) {
}
