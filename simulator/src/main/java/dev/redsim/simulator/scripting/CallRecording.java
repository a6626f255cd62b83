package dev.redsim.simulator.scripting;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What an EVAL script's redis.call and redis.pcall got while it ran on the engine thread, so that it can be run
 * again from its start on the script thread without running its commands twice (decision 0030).
 *
 * <p>A luaj call stack cannot move to another thread. An EVAL script is a pure function of its keys, arguments, the
 * replies its commands get and math.random's state (globals are read-only, the script cache keeps no per-run state),
 * so the script thread reaches the point where the engine thread stopped by running it again with each recorded
 * reply handed back instead of running the command; from there on it runs live. Each replayed call must ask for the
 * same command, with the same arguments, by the same function (call or pcall) and protocol as recorded; anything
 * else is {@link ReplayDiverged}.
 */
final class CallRecording {
    /**
     * One call that reached the server: its command line, how it was asked, and what it got (a rejection, or its
     * reply's place in {@link #replies}).
     */
    private record Call(byte[][] argv, boolean raise, int resp, String rejection, int replyAt) {
    }

    private final List<Call> calls = new ArrayList<>();
    /**
     * The RESP bytes of every recorded reply, one after another: a copy per call into one growing array, since
     * most scripts never move and their recording is dropped unread.
     */
    private byte[] replies = new byte[256];
    private int repliesLength;
    private boolean replaying;
    private int next;
    private String divergence;

    /** Recording: a call refused before it ran (its error already counted in errorstats). */
    void rejected(byte[][] argv, boolean raise, int resp, String message) {
        if (!replaying) {
            calls.add(new Call(argv, raise, resp, message, -1));
        }
    }

    /** Recording: a call that ran and got the reply in {@code reply[from, from + length)} (an error reply included). */
    void executed(byte[][] argv, boolean raise, int resp, byte[] reply, int from, int length) {
        if (replaying) {
            return;
        }
        if (repliesLength + length > replies.length) {
            replies = Arrays.copyOf(replies, Math.max(replies.length * 2, repliesLength + length));
        }
        System.arraycopy(reply, from, replies, repliesLength, length);
        calls.add(new Call(argv, raise, resp, null, repliesLength));
        repliesLength += length;
    }

    /** From now on calls are answered from the recording until it is used up. */
    void startReplay() {
        replaying = true;
        next = 0;
    }

    /** Whether the next call must be answered from the recording rather than run. */
    boolean replayPending() {
        if (divergence != null) {
            throw new ReplayDiverged(divergence);
        }
        return replaying && next < calls.size();
    }

    /** The recorded rejection message of the next call, or null when it ran; the call must be the recorded one. */
    String nextRejection(byte[][] argv, boolean raise, int resp) {
        return expect(argv, raise, resp).rejection;
    }

    /** The recorded replies; the one of the call {@link #nextRejection} just matched starts at {@link #lastReplyAt}. */
    byte[] replies() {
        return replies;
    }

    int lastReplyAt() {
        return calls.get(next - 1).replyAt;
    }

    private Call expect(byte[][] argv, boolean raise, int resp) {
        Call call = calls.get(next);
        if (call.raise != raise || call.resp != resp || !Arrays.deepEquals(call.argv, argv)) {
            divergence = "call " + (next + 1) + " of " + calls.size() + " differs";
            throw new ReplayDiverged(divergence);
        }
        next++;
        return call;
    }

    /** The script ended: in a replay every recorded call must have been asked for again. */
    void checkEnded() {
        if (divergence != null) {
            throw new ReplayDiverged(divergence);
        }
        if (replaying && next < calls.size()) {
            divergence = "ended after " + next + " of " + calls.size() + " calls";
            throw new ReplayDiverged(divergence);
        }
    }

    /** Whether the script is being run again (errors then say so). */
    boolean replaying() {
        return replaying;
    }
}
