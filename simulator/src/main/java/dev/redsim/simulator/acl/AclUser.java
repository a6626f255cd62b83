package dev.redsim.simulator.acl;

import dev.redsim.simulator.acl.AclRuleError.Reason;
import dev.redsim.simulator.protocol.InlineSplitter;
import dev.redsim.simulator.server.ClientUser;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * An ACL user (Redis's struct user): its flags, password hashes and selectors, the root one first. Connections
 * hold on to the user object itself, so ACL SETUSER changes it in place (rules are applied to a copy first, and
 * copied back only when all of them applied), and a connection sees the new rules with its next command.
 */
public final class AclUser implements ClientUser {
    static final int ENABLED = 1;
    static final int DISABLED = 2;
    static final int NOPASS = 4;
    static final int SKIP_SANITIZE_PAYLOAD = 8;
    static final int SANITIZE_PAYLOAD = 16;
    /** The flags in the order ACL LIST and ACL GETUSER show them. */
    private static final String[] FLAG_NAMES = {"on", "off", "nopass", "skip-sanitize-payload", "sanitize-payload"};

    /** The name as ISO-8859-1 text (one char per byte): names are binary, and this keeps them exact. */
    final String name;
    private final CommandIndex index;
    /** acl-pubsub-default as it is when a selector is made: whether new selectors get all channels. */
    private final BooleanSupplier channelsByDefault;
    int flags = DISABLED;
    final List<String> passwords = new ArrayList<>();
    final List<Selector> selectors = new ArrayList<>();
    /** Some selector allows everything: the check has nothing to look at (the default user's usual case). */
    private boolean unrestricted;

    /**
     * A new user: off, no passwords, no commands, no keys, and all channels when acl-pubsub-default says so.
     */
    AclUser(String name, CommandIndex index, BooleanSupplier channelsByDefault) {
        this.name = name;
        this.index = index;
        this.channelsByDefault = channelsByDefault;
        selectors.add(newSelector(Selector.ROOT));
    }

    private Selector newSelector(int flags) {
        return new Selector(index, flags | (channelsByDefault.getAsBoolean() ? Selector.ALLCHANNELS : 0));
    }

    /** An unlinked copy to try rules on (ACLCopyUser into a fake user). */
    AclUser copy() {
        AclUser copy = new AclUser(name, index, channelsByDefault);
        copy.copyFrom(this);
        return copy;
    }

    /** Takes the rules of another user; the name stays (ACLCopyUser). */
    void copyFrom(AclUser other) {
        flags = other.flags;
        passwords.clear();
        passwords.addAll(other.passwords);
        selectors.clear();
        for (Selector selector : other.selectors) {
            selectors.add(selector.copy());
        }
        refresh();
    }

    Selector root() {
        return selectors.get(0);
    }

    @Override
    public boolean readsEveryKey() {
        for (Selector selector : selectors) {
            if (selector.readsEveryKey()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String name() {
        return new String(name.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    /** The name's bytes. */
    public byte[] nameBytes() {
        return name.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Override
    public boolean nopass() {
        return (flags & NOPASS) != 0;
    }

    @Override
    public boolean enabled() {
        return (flags & DISABLED) == 0;
    }

    boolean unrestricted() {
        return unrestricted;
    }

    /** Recomputes what the checks precompute; after every change of the rules. */
    void refresh() {
        boolean any = false;
        for (Selector selector : selectors) {
            any |= selector.unrestricted();
        }
        unrestricted = any;
    }

    /** The flag names in Redis's order. */
    List<String> flagNames() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < FLAG_NAMES.length; i++) {
            if ((flags & (1 << i)) != 0) {
                names.add(FLAG_NAMES[i]);
            }
        }
        return names;
    }

    // ---- rules (ACLSetUser) ----

    /** Applies one rule (ISO-8859-1 text); the empty rule does nothing. Callers {@link #refresh()} after. */
    void apply(String op) throws AclRuleError {
        if (op.isEmpty()) {
            return;
        }
        char first = op.charAt(0);
        if (Ascii.equalsIgnoreCase(op, "on")) {
            flags = (flags | ENABLED) & ~DISABLED;
        } else if (Ascii.equalsIgnoreCase(op, "off")) {
            flags = (flags | DISABLED) & ~ENABLED;
        } else if (Ascii.equalsIgnoreCase(op, "skip-sanitize-payload")) {
            flags = (flags | SKIP_SANITIZE_PAYLOAD) & ~SANITIZE_PAYLOAD;
        } else if (Ascii.equalsIgnoreCase(op, "sanitize-payload")) {
            flags = (flags | SANITIZE_PAYLOAD) & ~SKIP_SANITIZE_PAYLOAD;
        } else if (Ascii.equalsIgnoreCase(op, "nopass")) {
            flags |= NOPASS;
            passwords.clear();
        } else if (Ascii.equalsIgnoreCase(op, "resetpass")) {
            flags &= ~NOPASS;
            passwords.clear();
        } else if (first == '>' || first == '#') {
            String hash = first == '>' ? Passwords.hash(op.substring(1)) : Passwords.checkedHash(op.substring(1));
            if (!passwords.contains(hash)) {
                passwords.add(hash);
            }
            flags &= ~NOPASS;
        } else if (first == '<' || first == '!') {
            String hash = first == '<' ? Passwords.hash(op.substring(1)) : Passwords.checkedHash(op.substring(1));
            if (!passwords.remove(hash)) {
                throw new AclRuleError(Reason.NO_SUCH_PASSWORD);
            }
        } else if (first == '(' && op.charAt(op.length() - 1) == ')') {
            selectors.add(selectorOf(op));
        } else if (Ascii.equalsIgnoreCase(op, "clearselectors")) {
            selectors.subList(1, selectors.size()).clear();
        } else if (Ascii.equalsIgnoreCase(op, "reset")) {
            apply("resetpass");
            apply("resetkeys");
            apply("resetchannels");
            if (channelsByDefault.getAsBoolean()) {
                apply("allchannels");
            }
            apply("off");
            apply("sanitize-payload");
            apply("clearselectors");
            apply("-@all");
        } else {
            root().apply(op);
        }
    }

    /** A selector from "(rule rule ...)": the rules inside split as redis-cli splits a line. */
    private Selector selectorOf(String op) throws AclRuleError {
        Selector selector = newSelector(0);
        byte[] inner = op.substring(1, op.length() - 1).getBytes(StandardCharsets.ISO_8859_1);
        byte[][] rules = InlineSplitter.split(inner);
        if (rules != null) { // unbalanced quotes: Redis reads no rules at all, and the selector stays empty
            for (byte[] rule : rules) {
                selector.apply(new String(rule, StandardCharsets.ISO_8859_1));
            }
        }
        return selector;
    }

    /** The whole user as rules, after "user name " in ACL LIST and the ACL file (ACLDescribeUser). */
    String describe() {
        StringBuilder out = new StringBuilder();
        for (String flag : flagNames()) {
            out.append(flag).append(' ');
        }
        for (String password : passwords) {
            out.append('#').append(password).append(' ');
        }
        for (Selector selector : selectors) {
            String text = SelectorText.describe(index, selector);
            if (selector.root()) {
                out.append(text);
            } else {
                out.append(" (").append(text).append(')');
            }
        }
        return out.toString();
    }

    // ---- checks ----

    /** Redis's ACLCheckCredentials for this user: on, and nopass or one of its passwords. */
    boolean accepts(byte[] password) {
        if (!enabled()) {
            return false;
        }
        if ((flags & NOPASS) != 0) {
            return true;
        }
        return Passwords.matchesAny(passwords, password);
    }

    /**
     * Redis's ACLCheckAllUserCommandPerm: OK when some selector allows the call; otherwise the refusal to report,
     * packed as reason * 2^32 + argument index: a command refusal when no selector knows the command, else the
     * key or channel refusal of the highest rank, ties going to the later argument.
     */
    long check(AclCommand command, byte[][] args, CallKeys keys) {
        if (unrestricted) {
            return Selector.OK;
        }
        int relevant = Selector.DENIED_CMD;
        int[] where = {0};
        int lastIndex = 0;
        for (Selector selector : selectors) {
            int outcome = selector.check(command, args, keys, where);
            if (outcome == Selector.OK) {
                return Selector.OK;
            }
            if (outcome > relevant || (outcome == relevant && where[0] > lastIndex)) {
                relevant = outcome;
                lastIndex = where[0];
            }
        }
        return ((long) relevant << 32) | lastIndex;
    }

    /**
     * Whether the channel rules of this user (now) are no narrower than those of {@code before}, so that no
     * subscriber can have lost a channel (ACLKillPubsubClientsIfNeeded's shortcuts): some selector allows all
     * channels, or every channel rule of before is still there and none of before's selectors allowed all.
     */
    boolean keepsChannelsOf(AclUser before) {
        for (Selector selector : selectors) {
            if ((selector.flags & Selector.ALLCHANNELS) != 0) {
                return true;
            }
        }
        List<byte[]> upcoming = channelRules();
        for (Selector selector : before.selectors) {
            if ((selector.flags & Selector.ALLCHANNELS) != 0) {
                return false;
            }
            for (byte[] rule : selector.channels) {
                if (upcoming.stream().noneMatch(r -> java.util.Arrays.equals(r, rule))) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Every channel rule of every selector, for checking what subscribers still listen to. */
    List<byte[]> channelRules() {
        List<byte[]> rules = new ArrayList<>();
        for (Selector selector : selectors) {
            rules.addAll(selector.channels);
        }
        return rules;
    }
}
