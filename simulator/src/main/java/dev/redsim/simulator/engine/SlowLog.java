package dev.redsim.simulator.engine;

import dev.redsim.simulator.protocol.ChunkedCommand;
import dev.redsim.simulator.util.ChunkedBytes;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;

/**
 * The slow log (slowlog.c): commands that ran at least slowlog-log-slower-than microseconds, newest first, at most
 * slowlog-max-len of them, with their arguments shortened as Redis shortens them (32 arguments, 128 bytes each).
 * Timestamps are on the simulator's clock.
 */
public final class SlowLog {
    private static final int MAX_ARGS = 32;
    private static final int MAX_ARG_BYTES = 128;

    private final Config config;
    private final Deque<Entry> entries = new ArrayDeque<>();
    private long nextId;
    /** slowlog-log-slower-than as read at config version {@link #thresholdVersion}. */
    private long threshold;
    private int thresholdVersion = -1;

    SlowLog(Config config) {
        this.config = config;
    }

    /** One logged command: its arguments as logged (shortened, secrets redacted) and who sent it. */
    public record Entry(long id, long timestampSeconds, long durationMicros, List<byte[]> args, String address,
                        String clientName) {
    }

    /**
     * slowlogPushEntryIfNeeded: logs the command if it was slow enough, and trims the log to its length.
     * {@code chunked}: the command's value came in chunks (or null); while it is still only in chunks its place in
     * {@code args} is null, and the log takes its head and its length.
     */
    public void record(byte[][] args, ChunkedCommand chunked, long durationMicros, long nowMillis, String address,
                       String clientName) {
        if (!logs(durationMicros)) {
            return;
        }
        entries.addFirst(new Entry(nextId++, nowMillis / 1000, durationMicros, shortened(args, chunked), address,
                clientName));
        long max = config.getLong("slowlog-max-len");
        while (entries.size() > max) {
            entries.removeLast();
        }
    }

    /**
     * Whether a call that took this long goes into the log: callers ask first, so that the entry's parts (the
     * client's address, redacted arguments) are only made for the calls that are logged.
     */
    public boolean logs(long durationMicros) {
        int version = config.version();
        if (version != thresholdVersion) { // read again only after some CONFIG SET: every call asks
            threshold = config.getLong("slowlog-log-slower-than");
            thresholdVersion = version;
        }
        return threshold >= 0 && durationMicros >= threshold;
    }

    public int size() {
        return entries.size();
    }

    /** SLOWLOG RESET: the entries go; ids go on counting. */
    public void reset() {
        entries.clear();
    }

    /** The newest {@code count} entries, newest first. */
    public List<Entry> newest(long count) {
        Entry[] result = new Entry[(int) Math.min(count, entries.size())];
        Iterator<Entry> it = entries.iterator();
        for (int i = 0; i < result.length; i++) {
            result[i] = it.next();
        }
        return Arrays.asList(result);
    }

    private static List<byte[]> shortened(byte[][] args, ChunkedCommand chunked) {
        int kept = args.length > MAX_ARGS ? MAX_ARGS - 1 : args.length;
        byte[][] logged = new byte[args.length > MAX_ARGS ? MAX_ARGS : args.length][];
        for (int i = 0; i < kept; i++) {
            byte[] arg = args[i];
            if (arg == null) { // a value in chunks: always longer than what is logged of it
                ChunkedBytes value = chunked.value(i);
                logged[i] = cut(value.range(0, MAX_ARG_BYTES), value.length());
            } else {
                logged[i] = arg.length > MAX_ARG_BYTES ? cut(arg, arg.length) : arg;
            }
        }
        if (kept < args.length) {
            logged[kept] = ("... (" + (args.length - kept) + " more arguments)").getBytes(StandardCharsets.US_ASCII);
        }
        return Arrays.asList(logged);
    }

    /** The first {@link #MAX_ARG_BYTES} of an argument of {@code length} bytes, and how many more it had. */
    private static byte[] cut(byte[] head, long length) {
        byte[] tail = ("... (" + (length - MAX_ARG_BYTES) + " more bytes)").getBytes(StandardCharsets.US_ASCII);
        byte[] cut = Arrays.copyOf(head, MAX_ARG_BYTES + tail.length);
        System.arraycopy(tail, 0, cut, MAX_ARG_BYTES, tail.length);
        return cut;
    }
}
