package dev.redsim.simulator.scripting;

/**
 * The script thread, knowing which Lua state's hook runs the current script. Library functions need it to
 * name themselves in argument errors: luaj keeps one string metatable for the whole JVM, so s:rep() may reach
 * the string.rep of another Lua state than the script's own.
 */
final class ScriptCarrier extends Thread {
    private ScriptHook activeHook; // written and read on this thread only

    ScriptCarrier(Runnable loop, String name, long stackBytes) {
        super(null, loop, name, stackBytes);
    }

    void activeHook(ScriptHook hook) {
        activeHook = hook;
    }

    /** The hook of the script running on the calling thread, or {@code fallback} off the script thread. */
    static ScriptHook hookOr(ScriptHook fallback) {
        if (Thread.currentThread() instanceof ScriptCarrier carrier && carrier.activeHook != null) {
            return carrier.activeHook;
        }
        return fallback;
    }
}
