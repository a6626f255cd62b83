package dev.redsim.simulator.commands.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * Where MIGRATE sends its commands (AUTH, SELECT, one RESTORE per key) in one batch, reading back the first line of
 * each reply as Redis's syncReadLine does: a node of the same simulated cluster on this thread, or a server over a
 * socket.
 */
interface MigrationLink extends AutoCloseable {
    /** What came back: a line per command answered, and why the rest did not come (null when all did). */
    record Replies(List<String> lines, Failure failure) {
        static Replies of(List<String> lines) {
            return new Replies(lines, null);
        }

        static Replies failed(List<String> lines, Failure failure) {
            return new Replies(new ArrayList<>(lines), failure);
        }
    }

    /** A socket problem, as Redis words it in its -IOERR reply; a timeout is never retried. */
    record Failure(String phase, boolean timeout) {
        static final String WRITING = "writing";
        static final String READING = "reading";
        static final String CONNECTING = "connecting";
    }

    Replies exchange(List<byte[][]> commands);

    @Override
    void close();
}
