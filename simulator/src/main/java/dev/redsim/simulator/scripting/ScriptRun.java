package dev.redsim.simulator.scripting;

import dev.redsim.simulator.server.ClientConnection;

/** What one running script carries: who called it, whether it may write, and what it did so far. */
final class ScriptRun {
    final ClientConnection caller;
    /** The caller's command that runs the script (eval, evalsha, fcall, ...), as the ACL log shows it. */
    final String callerCommand;
    final String sha;
    final boolean readOnly;
    /** Declared allow-oom: its writes are never refused for memory (Redis's SCRIPT_ALLOW_OOM). */
    final boolean allowOom;
    /** May touch keys of several slots of this node (SCRIPT_ALLOW_CROSS_SLOT); only cluster nodes ask. */
    final boolean allowCrossSlot;
    int resp = 2;
    boolean wrote;
    /** The calls of an EVAL script that started on the engine thread, for its replay; null otherwise. */
    CallRecording recording;

    ScriptRun(ClientConnection caller, String callerCommand, String sha, boolean readOnly, boolean allowOom,
              boolean allowCrossSlot) {
        this.caller = caller;
        this.allowCrossSlot = allowCrossSlot;
        this.callerCommand = callerCommand;
        this.sha = sha;
        this.readOnly = readOnly;
        this.allowOom = allowOom;
    }
}
