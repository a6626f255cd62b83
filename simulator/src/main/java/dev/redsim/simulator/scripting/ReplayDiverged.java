package dev.redsim.simulator.scripting;

/**
 * A script resumed on the script thread ({@link CallRecording}) asked for a different command than it did on the
 * engine thread, or ended before asking for all of them: what it computes depended on something other than its
 * keys, arguments and replies (a table's address in tostring, the pairs order of table keys, the heap). Its commands
 * so far have run and stay; it ends with an error that says so. An Error so that pcall cannot hold on to it.
 */
final class ReplayDiverged extends Error {
    ReplayDiverged(String detail) {
        super(detail, null, false, false);
    }
}
