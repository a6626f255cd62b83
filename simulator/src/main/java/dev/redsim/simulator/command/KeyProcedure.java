package dev.redsim.simulator.command;

import java.util.List;

/**
 * Hand-written key finding, as Redis's getkeys_proc: only for the commands whose key specs cannot say it all
 * (flags that depend on the arguments, marked variable_flags; keys Redis marks unknown or incomplete). Every
 * other command's keys come from its key specs ({@link KeySearch}).
 */
@FunctionalInterface
public interface KeyProcedure {
    /** The keys of this call, or null when the arguments make no sense as keys (Redis then answers "Invalid arguments"). */
    List<KeyRef> keys(byte[][] args);
}
