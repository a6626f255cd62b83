package dev.redsim.simulator.commands.streams;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.keyspace.StreamId;

/**
 * Stream IDs in arguments, read as t_stream.c reads them: "ms-seq" or "ms" (the sequence then defaults), "-" and
 * "+" where a range allows them, "ms-*" where XADD allows it, and a "(" prefix for exclusive range bounds.
 */
final class StreamIds {
    static final RedisError INVALID = new RedisError("ERR Invalid stream ID specified as stream command argument");
    /** Longer arguments are refused before parsing, as Redis copies an ID into a 128-byte buffer. */
    private static final int MAX_LENGTH = 127;

    private StreamIds() {
    }

    /** An ID as XADD reads it: {@code seqGiven} is false for "ms-*". */
    record Parsed(StreamId id, boolean seqGiven) {
    }

    /** streamParseStrictIDOrReply: no "-" or "+". */
    static StreamId strict(CommandContext ctx, int index) {
        return parse(ctx.arg(index), 0, true, false).id();
    }

    /** A strict ID, or null when the argument is not one (XCLAIM: where the IDs end, its options begin). */
    static StreamId strictOrNull(byte[] arg) {
        try {
            return parse(arg, 0, true, false).id();
        } catch (RedisError notAnId) {
            return null;
        }
    }

    /** streamParseIDOrReply: "-" is 0-0, "+" the largest ID, a missing sequence is {@code missingSeq}. */
    static StreamId lenient(CommandContext ctx, int index, long missingSeq) {
        return parse(ctx.arg(index), missingSeq, false, false).id();
    }

    /** XADD's ID: strict, and "ms-*" leaves the sequence to the stream. */
    static Parsed forAdd(byte[] arg) {
        return parse(arg, 0, true, true);
    }

    /**
     * streamParseIntervalIDOrReply then the increment or decrement an exclusive bound takes ("(" prefix, strict
     * after it); {@code start} bounds move up, end bounds down, with Redis's error when there is no room.
     */
    static StreamId intervalBound(CommandContext ctx, int index, boolean start) {
        byte[] arg = ctx.arg(index);
        long missingSeq = start ? 0 : -1L;
        if (arg.length > 1 && arg[0] == '(') {
            byte[] rest = java.util.Arrays.copyOfRange(arg, 1, arg.length);
            StreamId id = parse(rest, missingSeq, true, false).id();
            StreamId moved = start ? id.next() : id.previous();
            if (moved == null) {
                throw new RedisError(start ? "ERR invalid start ID for the interval" : "ERR invalid end ID for the interval");
            }
            return moved;
        }
        return parse(arg, missingSeq, false, false).id();
    }

    private static Parsed parse(byte[] arg, long missingSeq, boolean strict, boolean seqMayBeAuto) {
        if (arg.length > MAX_LENGTH) {
            throw INVALID;
        }
        // Redis parses a C string copy: whatever follows a NUL byte is not seen
        arg = java.util.Arrays.copyOf(arg, cStringLength(arg));
        if (arg.length == 1 && (arg[0] == '-' || arg[0] == '+')) {
            if (strict) {
                throw INVALID;
            }
            return new Parsed(arg[0] == '-' ? StreamId.MIN : StreamId.MAX, true);
        }
        int dash = indexOf(arg, (byte) '-');
        byte[] msText = dash < 0 ? arg : java.util.Arrays.copyOfRange(arg, 0, dash);
        Long ms = unsigned(msText);
        if (ms == null) {
            throw INVALID;
        }
        if (dash < 0) {
            return new Parsed(new StreamId(ms, missingSeq), true);
        }
        byte[] seqText = java.util.Arrays.copyOfRange(arg, dash + 1, arg.length);
        if (seqMayBeAuto && seqText.length == 1 && seqText[0] == '*') {
            return new Parsed(new StreamId(ms, 0), false);
        }
        Long seq = unsigned(seqText);
        if (seq == null) {
            throw INVALID;
        }
        return new Parsed(new StreamId(ms, seq), true);
    }

    private static int indexOf(byte[] arg, byte b) {
        for (int i = 0; i < arg.length; i++) {
            if (arg[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /**
     * string2ull: a strict integer first (negative ones refused), otherwise what strtoull accepts over the whole
     * text: leading white space, a sign ("-" negates modulo 2^64), decimal digits, no overflow.
     */
    static Long unsigned(byte[] s) {
        Long strict = Numbers.parseLongStrict(s);
        if (strict != null) {
            return strict < 0 ? null : strict;
        }
        int i = 0;
        while (i < s.length && isSpace(s[i])) {
            i++;
        }
        boolean negative = false;
        if (i < s.length && (s[i] == '+' || s[i] == '-')) {
            negative = s[i] == '-';
            i++;
        }
        if (i >= s.length) {
            return null;
        }
        long value = 0;
        for (; i < s.length; i++) {
            int digit = s[i] - '0';
            if (digit < 0 || digit > 9) {
                return null;
            }
            if (Long.compareUnsigned(value, Long.divideUnsigned(-1L - digit, 10)) > 0) {
                return null; // ERANGE
            }
            value = value * 10 + digit;
        }
        return negative ? -value : value;
    }

    private static int cStringLength(byte[] text) {
        for (int i = 0; i < text.length; i++) {
            if (text[i] == 0) {
                return i;
            }
        }
        return text.length;
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0b || c == '\f' || c == '\r';
    }
}
