package dev.redsim.conformance.contracts.thoonk;

/**
 * Called by an implementation's client before each command it sends. The suite throws {@link InjectedCrash}
 * from it to stop a client after its k-th command, or runs another client's work there to interleave exactly.
 */
@FunctionalInterface
public interface CommandHook {
    CommandHook NONE = sent -> { };

    /** @param sent how many commands the client sent before this one */
    void beforeCommand(int sent);
}
