package dev.redsim.conformance.contracts.thoonk;

/** Thrown by a {@link CommandHook} to make a client die in the middle of an operation. */
public final class InjectedCrash extends RuntimeException {
    public InjectedCrash(int afterCommands) {
        super("client stopped after " + afterCommands + " command(s)", null, false, false);
    }
}
