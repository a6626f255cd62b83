package dev.redsim.simulator.acl;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * A selector written back as rules, the way ACL LIST, ACL GETUSER and ACL SAVE write it (Redis 7.0's
 * ACLDescribeSelector): key patterns, channels, then the commands as +@all or -@all followed by the categories
 * that best fit the bitmap (Redis's greedy choice, in category order) and the single commands that remain.
 *
 * <p>Redis lists those single commands in the order of its command dictionary, which is hashed with a seed drawn
 * at each start, so it differs from one redis-server to the next; here they come in name order, each container
 * followed by its subcommands.
 */
final class SelectorText {
    private SelectorText() {
    }

    /** The whole selector, as ACL LIST shows it (without the parentheses of a non-root selector). */
    static String describe(CommandIndex index, Selector selector) {
        StringBuilder out = new StringBuilder();
        if ((selector.flags & Selector.ALLKEYS) != 0) {
            out.append("~* ");
        } else {
            for (Selector.KeyPattern pattern : selector.patterns) {
                appendPattern(out, pattern).append(' ');
            }
        }
        if ((selector.flags & Selector.ALLCHANNELS) != 0) {
            out.append("&* ");
        } else {
            out.append("resetchannels ");
            for (byte[] channel : selector.channels) {
                out.append('&').append(latin1(channel)).append(' ');
            }
        }
        return out.append(commands(index, selector)).toString();
    }

    /** The key patterns alone, as ACL GETUSER's "keys" field. */
    static String keys(Selector selector) {
        if ((selector.flags & Selector.ALLKEYS) != 0) {
            return "~*";
        }
        StringBuilder out = new StringBuilder();
        for (Selector.KeyPattern pattern : selector.patterns) {
            if (!out.isEmpty()) {
                out.append(' ');
            }
            appendPattern(out, pattern);
        }
        return out.toString();
    }

    /** The channel patterns alone, as ACL GETUSER's "channels" field. */
    static String channels(Selector selector) {
        if ((selector.flags & Selector.ALLCHANNELS) != 0) {
            return "&*";
        }
        StringBuilder out = new StringBuilder();
        for (byte[] channel : selector.channels) {
            if (!out.isEmpty()) {
                out.append(' ');
            }
            out.append('&').append(latin1(channel));
        }
        return out.toString();
    }

    private static StringBuilder appendPattern(StringBuilder out, Selector.KeyPattern pattern) {
        String prefix = switch (pattern.flags) {
            case Selector.READ -> "%R~";
            case Selector.WRITE -> "%W~";
            default -> "~";
        };
        return out.append(prefix).append(latin1(pattern.pattern));
    }

    /**
     * The command rules (ACLDescribeSelectorCommandRules): rules that rebuild exactly this bitmap when applied to
     * a fresh selector. A "fake" bitmap follows what the emitted rules do; a "temp" one holds what is still left to
     * explain, and the category explaining most of it with fewest exceptions is taken first.
     */
    static String commands(CommandIndex index, Selector selector) {
        StringBuilder rules = new StringBuilder();
        boolean additive = !selector.bit(CommandIndex.FUTURE_COMMANDS);
        long[] fake = new long[selector.allowed.length];
        if (additive) {
            rules.append("-@all ");
        } else {
            rules.append("+@all ");
            Arrays.fill(fake, -1L);
        }
        long[] temp = selector.allowed.clone();
        boolean[] applied = new boolean[AclCategories.NAMES.size()];
        while (true) {
            int best = -1;
            long minDiff = Integer.MAX_VALUE;
            long maxSame = 0;
            for (int j = 0; j < applied.length; j++) {
                if (applied[j]) {
                    continue;
                }
                long on = 0;
                long off = 0;
                for (AclCommand command : index.inCategory(j)) {
                    if (bit(temp, command.id)) {
                        on++;
                    } else {
                        off++;
                    }
                }
                long diff = additive ? off : on;
                long same = additive ? on : off;
                if (same > diff && (diff < minDiff || (diff == minDiff && same > maxSame))) {
                    best = j;
                    minDiff = diff;
                    maxSame = same;
                }
            }
            if (best < 0) {
                break;
            }
            for (AclCommand command : index.inCategory(best)) {
                change(fake, command, additive);
                change(temp, command, !additive);
            }
            rules.append(additive ? "+@" : "-@").append(AclCategories.NAMES.get(best)).append(' ');
            applied[best] = true;
        }
        for (AclCommand command : index.topLevel()) {
            single(selector, fake, command, rules);
        }
        rules.setLength(rules.length() - 1); // the last space
        return rules.toString();
    }

    private static void single(Selector selector, long[] fake, AclCommand command, StringBuilder rules) {
        boolean userBit = selector.bit(command.id);
        if (userBit != bit(fake, command.id)) {
            rules.append(userBit ? '+' : '-').append(command.fullName).append(' ');
            change(fake, command, userBit);
        }
        for (AclCommand sub : command.subcommands()) {
            single(selector, fake, sub, rules);
        }
        List<String> firstArgs = selector.firstArgs == null ? null : selector.firstArgs.get(command.id);
        if (!userBit && firstArgs != null) {
            for (String arg : firstArgs) {
                rules.append('+').append(command.fullName).append('|').append(arg).append(' ');
            }
        }
    }

    /** What +command / -command does to a bitmap: the command and all its subcommands. */
    private static void change(long[] bits, AclCommand command, boolean allow) {
        set(bits, command.id, allow);
        for (AclCommand sub : command.subcommands()) {
            set(bits, sub.id, allow);
        }
    }

    private static void set(long[] bits, int id, boolean value) {
        if (value) {
            bits[id >>> 6] |= 1L << (id & 63);
        } else {
            bits[id >>> 6] &= ~(1L << (id & 63));
        }
    }

    private static boolean bit(long[] bits, int id) {
        return (bits[id >>> 6] & (1L << (id & 63))) != 0;
    }

    static String latin1(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
