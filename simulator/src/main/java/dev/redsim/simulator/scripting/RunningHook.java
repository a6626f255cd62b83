package dev.redsim.simulator.scripting;

/**
 * Which Lua state runs on the calling thread, through its hook. Library functions need it: luaj keeps one string
 * metatable for the whole JVM, so s:rep() must find the string library (and the frames for error names) of the
 * script that runs here, not of whichever simulator built a Lua state last. Inheritable, because luaj runs each
 * coroutine on a thread of its own, started by the thread that first resumes it.
 *
 * <p>A thread runs one script at a time, and each simulator's scripts run on its own threads, so the binding never
 * crosses from one simulator to another; it is cleared when the script ends.
 */
final class RunningHook {
    private static final InheritableThreadLocal<ScriptHook> HOOK = new InheritableThreadLocal<>();

    private RunningHook() {
    }

    static void bind(ScriptHook hook) {
        HOOK.set(hook);
    }

    static void unbind() {
        HOOK.remove();
    }

    /** The hook of the script running on this thread, or {@code fallback} when none is bound. */
    static ScriptHook orElse(ScriptHook fallback) {
        ScriptHook hook = HOOK.get();
        return hook != null ? hook : fallback;
    }
}
