package dev.redsim.simulator.acl;

import dev.redsim.simulator.acl.AclRuleError.Reason;
import dev.redsim.simulator.util.GlobMatcher;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One set of permissions of a user (Redis 7.0's aclSelector): which commands it may run (a bitmap indexed by
 * command id, plus first arguments allowed of otherwise denied commands), which keys it may read or write, which
 * channels it may use. Every user has a root selector; the ones added with (...) are alternatives, a call being
 * allowed when any selector allows it. Rule text is held as ISO-8859-1 strings, one char per byte.
 */
final class Selector {
    static final int ROOT = 1;
    static final int ALLKEYS = 2;
    static final int ALLCHANNELS = 4;
    static final int ALLCOMMANDS = 8;

    static final int READ = 1;
    static final int WRITE = 2;
    static final int READ_WRITE = READ | WRITE;

    /** Outcomes of a check, ordered as Redis ranks them when it picks the refusal to report (ACL_DENIED_*). */
    static final int OK = 0;
    static final int DENIED_CMD = 1;
    static final int DENIED_KEY = 2;
    static final int DENIED_AUTH = 3;
    static final int DENIED_CHANNEL = 4;

    /** A key pattern with the access it grants (READ, WRITE or both). */
    static final class KeyPattern {
        final byte[] pattern;
        int flags;

        KeyPattern(byte[] pattern, int flags) {
            this.pattern = pattern;
            this.flags = flags;
        }
    }

    private final CommandIndex index;
    int flags;
    final long[] allowed = new long[CommandIndex.BITS / 64];
    /** By command id, the first arguments allowed of a command whose bit is not set; null when there are none. */
    Map<Integer, List<String>> firstArgs;
    final List<KeyPattern> patterns = new ArrayList<>();
    final List<byte[]> channels = new ArrayList<>();

    /** An empty selector: no commands, no keys, and the channels acl-pubsub-default gives new users. */
    Selector(CommandIndex index, int flags) {
        this.index = index;
        this.flags = flags;
    }

    Selector copy() {
        Selector copy = new Selector(index, flags);
        System.arraycopy(allowed, 0, copy.allowed, 0, allowed.length);
        if (firstArgs != null) {
            copy.firstArgs = new HashMap<>();
            firstArgs.forEach((id, args) -> copy.firstArgs.put(id, new ArrayList<>(args)));
        }
        for (KeyPattern pattern : patterns) {
            copy.patterns.add(new KeyPattern(pattern.pattern, pattern.flags));
        }
        copy.channels.addAll(channels);
        return copy;
    }

    boolean root() {
        return (flags & ROOT) != 0;
    }

    /** Whether this selector alone allows every call: all commands, all keys, all channels. */
    boolean unrestricted() {
        return (flags & (ALLCOMMANDS | ALLKEYS | ALLCHANNELS)) == (ALLCOMMANDS | ALLKEYS | ALLCHANNELS);
    }

    // ---- rules (ACLSetSelector) ----

    /** Applies one rule; on an error nothing of the rule was applied. */
    void apply(String op) throws AclRuleError {
        char first = op.isEmpty() ? 0 : op.charAt(0);
        char second = op.length() < 2 ? 0 : op.charAt(1);
        if (Ascii.equalsIgnoreCase(op, "allkeys") || op.equals("~*")) {
            flags |= ALLKEYS;
            patterns.clear();
        } else if (Ascii.equalsIgnoreCase(op, "resetkeys")) {
            flags &= ~ALLKEYS;
            patterns.clear();
        } else if (Ascii.equalsIgnoreCase(op, "allchannels") || op.equals("&*")) {
            flags |= ALLCHANNELS;
            channels.clear();
        } else if (Ascii.equalsIgnoreCase(op, "resetchannels")) {
            flags &= ~ALLCHANNELS;
            channels.clear();
        } else if (Ascii.equalsIgnoreCase(op, "allcommands") || Ascii.equalsIgnoreCase(op, "+@all")) {
            Arrays.fill(allowed, -1L);
            flags |= ALLCOMMANDS;
            firstArgs = null;
        } else if (Ascii.equalsIgnoreCase(op, "nocommands") || Ascii.equalsIgnoreCase(op, "-@all")) {
            Arrays.fill(allowed, 0L);
            flags &= ~ALLCOMMANDS;
            firstArgs = null;
        } else if (first == '~' || first == '%') {
            addKeyPattern(op);
        } else if (first == '&') {
            addChannel(op);
        } else if (first == '+' && second != '@') {
            allowCommand(op.substring(1));
        } else if (first == '-' && second != '@') {
            AclCommand command = index.lookup(op.substring(1));
            if (command == null) {
                throw new AclRuleError(Reason.UNKNOWN_COMMAND);
            }
            changePermission(command, false);
        } else if (first == '+' || first == '-') {
            int category = AclCategories.NAMES.indexOf(Ascii.lower(op.substring(2)));
            if (category < 0) {
                throw new AclRuleError(Reason.UNKNOWN_COMMAND);
            }
            for (AclCommand command : index.inCategory(category)) {
                changePermission(command, first == '+');
            }
        } else {
            throw new AclRuleError(Reason.SYNTAX);
        }
    }

    private void addKeyPattern(String op) throws AclRuleError {
        if ((flags & ALLKEYS) != 0) {
            throw new AclRuleError(Reason.KEY_AFTER_ALLKEYS);
        }
        int access = 0;
        int offset = 1;
        if (op.charAt(0) == '%') {
            for (; offset < op.length(); offset++) {
                char c = op.charAt(offset);
                if ((c == 'R' || c == 'r') && (access & READ) == 0) {
                    access |= READ;
                } else if ((c == 'W' || c == 'w') && (access & WRITE) == 0) {
                    access |= WRITE;
                } else if (c == '~') {
                    offset++;
                    break;
                } else {
                    throw new AclRuleError(Reason.SYNTAX);
                }
            }
            if (access == 0) {
                throw new AclRuleError(Reason.SYNTAX);
            }
        } else {
            access = READ_WRITE;
        }
        String pattern = op.substring(offset);
        if (hasSpaces(pattern)) {
            throw new AclRuleError(Reason.SYNTAX);
        }
        byte[] bytes = pattern.getBytes(StandardCharsets.ISO_8859_1);
        for (KeyPattern existing : patterns) {
            if (Arrays.equals(existing.pattern, bytes)) {
                existing.flags |= access;
                flags &= ~ALLKEYS;
                return;
            }
        }
        patterns.add(new KeyPattern(bytes, access));
        flags &= ~ALLKEYS;
    }

    private void addChannel(String op) throws AclRuleError {
        if ((flags & ALLCHANNELS) != 0) {
            throw new AclRuleError(Reason.CHANNEL_AFTER_ALLCHANNELS);
        }
        String channel = op.substring(1);
        if (hasSpaces(channel)) {
            throw new AclRuleError(Reason.SYNTAX);
        }
        byte[] bytes = channel.getBytes(StandardCharsets.ISO_8859_1);
        boolean present = false;
        for (byte[] existing : channels) {
            present |= Arrays.equals(existing, bytes);
        }
        if (!present) {
            channels.add(bytes);
        }
        flags &= ~ALLCHANNELS;
    }

    /** +command, +container|subcommand, or +command|first-arg for a command without subcommands. */
    private void allowCommand(String name) throws AclRuleError {
        int bar = name.lastIndexOf('|');
        if (bar < 0) {
            AclCommand command = index.lookup(name);
            if (command == null) {
                throw new AclRuleError(Reason.UNKNOWN_COMMAND);
            }
            changePermission(command, true);
            return;
        }
        AclCommand command = index.lookup(name.substring(0, bar));
        if (command == null) {
            throw new AclRuleError(Reason.UNKNOWN_COMMAND);
        }
        if (command.parent != null) {
            throw new AclRuleError(Reason.FIRST_ARG_OF_SUBCOMMAND);
        }
        String firstArg = name.substring(bar + 1);
        if (firstArg.isEmpty()) {
            throw new AclRuleError(Reason.SYNTAX);
        }
        if (!command.subcommands().isEmpty()) {
            AclCommand sub = index.lookup(name);
            if (sub == null) {
                throw new AclRuleError(Reason.UNKNOWN_COMMAND);
            }
            changePermission(sub, true);
            return;
        }
        addFirstArg(command.id, firstArg);
    }

    private void addFirstArg(int id, String arg) {
        if (firstArgs == null) {
            firstArgs = new HashMap<>();
        }
        List<String> args = firstArgs.computeIfAbsent(id, i -> new ArrayList<>());
        for (String existing : args) {
            if (Ascii.equalsIgnoreCase(existing, arg)) {
                return;
            }
        }
        args.add(arg);
    }

    /** A command with its subcommands allowed or denied; a command's first-arg exceptions go either way. */
    void changePermission(AclCommand command, boolean allow) {
        setBit(command.id, allow);
        if (firstArgs != null) {
            firstArgs.remove(command.id);
        }
        for (AclCommand sub : command.subcommands()) {
            setBit(sub.id, allow);
        }
    }

    private void setBit(int id, boolean value) {
        if (value) {
            allowed[id >>> 6] |= 1L << (id & 63);
        } else {
            allowed[id >>> 6] &= ~(1L << (id & 63));
            flags &= ~ALLCOMMANDS; // no longer every command
        }
    }

    boolean bit(int id) {
        return (allowed[id >>> 6] & (1L << (id & 63))) != 0;
    }

    /** Redis's ACLStringHasSpaces: isspace() or NUL anywhere. */
    static boolean hasSpaces(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ' ' || (c >= '\t' && c <= '\r') || c == 0) {
                return true;
            }
        }
        return false;
    }

    // ---- checks (ACLSelectorCheckCmd) ----

    /**
     * Whether this selector allows the call: OK, or DENIED_CMD, DENIED_KEY or DENIED_CHANNEL with the index of the
     * offending argument in {@code where[0]} for the last two.
     */
    int check(AclCommand command, byte[][] args, CallKeys keys, int[] where) {
        if ((flags & ALLCOMMANDS) == 0 && !command.noAuth && !bit(command.id) && !firstArgAllowed(command, args)) {
            return DENIED_CMD;
        }
        if ((flags & ALLKEYS) == 0 && keys.hasKeys()) {
            List<CallKeys.Key> found = keys.keys();
            for (CallKeys.Key key : found) {
                if (!keyAllowed(args[key.index()], key.access())) {
                    where[0] = key.index();
                    return DENIED_KEY;
                }
            }
        }
        if ((flags & ALLCHANNELS) == 0 && command.channels != AclCommand.NO_CHANNELS) {
            int last = command.channels == AclCommand.PUBLISHES ? Math.min(2, args.length) : args.length;
            boolean literal = command.channels == AclCommand.SUBSCRIBES_PATTERNS;
            for (int i = 1; i < last; i++) {
                if (!channelAllowed(args[i], literal)) {
                    where[0] = i;
                    return DENIED_CHANNEL;
                }
            }
        }
        return OK;
    }

    private boolean firstArgAllowed(AclCommand command, byte[][] args) {
        if (args.length < 2 || firstArgs == null) {
            return false;
        }
        List<String> allowedArgs = firstArgs.get(command.id);
        if (allowedArgs == null) {
            return false;
        }
        String arg = new String(args[command.parent != null ? 2 : 1], StandardCharsets.ISO_8859_1);
        for (String allowedArg : allowedArgs) {
            if (Ascii.equalsIgnoreCase(allowedArg, arg)) {
                return true;
            }
        }
        return false;
    }

    /** ACLSelectorCheckKey: some pattern granting at least the access the key spec asks for matches the key. */
    boolean keyAllowed(byte[] key, int access) {
        if ((flags & ALLKEYS) != 0) {
            return true;
        }
        for (KeyPattern pattern : patterns) {
            if ((pattern.flags & access) == access && GlobMatcher.matches(pattern.pattern, key, false)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the selector reads every key: allkeys, or a read pattern that is "*" itself (a pattern that only
     * happens to match everything, such as "**", does not count in Redis either).
     */
    boolean readsEveryKey() {
        if ((flags & ALLKEYS) != 0) {
            return true;
        }
        for (KeyPattern pattern : patterns) {
            if ((pattern.flags & READ) == READ && pattern.pattern.length == 1 && pattern.pattern[0] == '*') {
                return true;
            }
        }
        return false;
    }

    /** Channels are matched against the patterns; a subscribed pattern must equal one of them. */
    boolean channelAllowed(byte[] channel, boolean literal) {
        if ((flags & ALLCHANNELS) != 0) {
            return true;
        }
        return AclChannels.allowedBy(channels, channel, literal);
    }
}
