package dev.redsim.simulator.scripting;

import dev.redsim.simulator.server.ClientConnection;

/** What one running script carries: who called it, whether it may write, and what it did so far. */
final class ScriptRun {
    final ClientConnection caller;
    /** The caller's command that runs the script (eval, evalsha, fcall, ...), as the ACL log shows it. */
    final String callerCommand;
    final String sha;
    final boolean readOnly;
    int resp = 2;
    boolean wrote;

    ScriptRun(ClientConnection caller, String callerCommand, String sha, boolean readOnly) {
        this.caller = caller;
        this.callerCommand = callerCommand;
        this.sha = sha;
        this.readOnly = readOnly;
    }
}
