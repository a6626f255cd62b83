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

    /**
     * The same, with the command's name (upper or lower case, as the client spells it). Implementations should
     * call this form: the racing-workers check uses the name to stop a worker right after its BRPOP.
     */
    default void beforeCommand(int sent, String command) {
        beforeCommand(sent);
    }

    /** A hook that sees only the command names. */
    static CommandHook named(java.util.function.BiConsumer<Integer, String> hook) {
        return new CommandHook() {
            @Override
            public void beforeCommand(int sent) {
                throw new UnsupportedOperationException("call beforeCommand(sent, command)");
            }

            @Override
            public void beforeCommand(int sent, String command) {
                hook.accept(sent, command);
            }
        };
    }
}
