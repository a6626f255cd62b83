package dev.redsim.simulator.scripting;

/**
 * Unwinds a script that started on the engine thread ({@link CallRecording}) and must go on on the script thread:
 * its time budget there is spent, it nests deeper than the engine thread's stack is sized for, or it starts a
 * coroutine (a Java thread of luaj's that this cannot unwind). An Error, not a LuaError or an Exception, so that
 * neither pcall nor xpcall nor luaj's VM turns it into a Lua error a script could catch; the hook raises it again at
 * every instruction until the script's frames are gone, in case a Java frame swallowed it anyway (luaj's error
 * handler call catches everything).
 */
final class SpeculationAbort extends Error {
    static final SpeculationAbort INSTANCE = new SpeculationAbort();

    private SpeculationAbort() {
        super("script moves to the script thread", null, false, false); // no stack trace: it is control flow
    }
}
