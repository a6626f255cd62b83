package dev.redsim.simulator.acl;

import dev.redsim.simulator.command.AccessControl;
import dev.redsim.simulator.command.CommandCatalog;
import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.engine.Engine;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.server.ClientUser;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The ACL of one server (Redis's acl.c): its users, the default one first among equals, the permission checks of
 * every command, authentication, and the ACL log. Runs on the engine thread (and on the script thread while a
 * script holds the engine, which then runs nothing that touches the ACL).
 */
public final class Acl implements AccessControl {
    private static final String DEFAULT = "default";

    /** How the ACL log describes a client: its CLIENT LIST line, showing it as running the given command. */
    @FunctionalInterface
    public interface ClientInfo {
        String describe(ClientConnection client, String runningCommand);
    }

    private final Engine engine;
    private final CommandIndex index;
    /** By name (ISO-8859-1 text, so in byte order, as Redis's radix tree lists them). */
    private Map<String, AclUser> users = new TreeMap<>();
    private final AclUser defaultUser;
    private final AclLog log = new AclLog();
    private ClientInfo clientInfo = (client, command) -> "id=" + client.id() + " cmd=" + command;

    /**
     * The ACL of a server: the default user (all commands, keys and channels, on, nopass), its password taken from
     * requirepass, then the users of the aclfile when one is configured. The engine's new connections start as this
     * default user, and requirepass changed with CONFIG SET changes its password, as in Redis.
     */
    public Acl(Engine engine, CommandCatalog catalog) {
        this.engine = engine;
        this.index = catalog.derived(CommandIndex.class, CommandIndex::new); // immutable, shared
        this.defaultUser = newDefaultUser();
        users.put(DEFAULT, defaultUser);
        requirePass(engine.config().requirePass());
        engine.config().onChange("requirepass", this::requirePass);
        engine.defaultUser(defaultUser);
        AclFile file = file();
        if (file != null) {
            String errors = load(file, null);
            if (errors != null) {
                throw new IllegalStateException("Aborting Redis startup because of ACL errors: " + errors);
            }
        }
    }

    private AclUser newUser(String name) {
        return new AclUser(name, index, this::channelsByDefault);
    }

    private AclUser newDefaultUser() {
        AclUser user = newUser(DEFAULT);
        try {
            for (String op : List.of("+@all", "~*", "&*", "on", "nopass")) {
                user.apply(op);
            }
        } catch (AclRuleError e) {
            throw new IllegalStateException(e);
        }
        user.refresh();
        return user;
    }

    /** acl-pubsub-default: whether new users and selectors start with all channels. */
    private boolean channelsByDefault() {
        return "allchannels".equals(engine.config().get("acl-pubsub-default"));
    }

    /** requirepass is the default user's password (Redis's ACLUpdateDefaultUserPassword); empty means nopass. */
    private void requirePass(String password) {
        try {
            defaultUser.apply("resetpass");
            if (password == null || password.isEmpty()) {
                defaultUser.apply("nopass");
            } else {
                defaultUser.apply(">" + latin1(password.getBytes(StandardCharsets.UTF_8)));
            }
        } catch (AclRuleError e) {
            throw new IllegalStateException(e);
        }
        defaultUser.refresh();
    }

    /** Installs how log entries describe clients (the CLIENT LIST line lives with the CLIENT commands). */
    public void clientInfo(ClientInfo clientInfo) {
        this.clientInfo = clientInfo;
    }

    // ---- the checks (AccessControl) ----

    @Override
    public String refuseCommand(ClientConnection client, CommandSpec spec, byte[][] args) {
        return switch (checkAndLog(client, spec.fullName(), null, spec, args)) {
            case Selector.OK -> null;
            case Selector.DENIED_CMD -> "NOPERM this user has no permissions to run the '" + spec.fullName()
                    + "' command";
            case Selector.DENIED_KEY -> "NOPERM this user has no permissions to access one of the keys used as "
                    + "arguments";
            default -> "NOPERM this user has no permissions to access one of the channels used as arguments";
        };
    }

    @Override
    public String refuseQueued(ClientConnection client, CommandSpec spec, byte[][] args) {
        String reason = switch (checkAndLog(client, "exec", AclLog.MULTI, spec, args)) {
            case Selector.OK -> null;
            case Selector.DENIED_CMD -> "no permission to execute the command or subcommand";
            case Selector.DENIED_KEY -> "no permission to touch the specified keys";
            default -> "no permission to access one of the channels used as arguments";
        };
        return reason == null ? null : "NOPERM ACLs rules changed between the moment the transaction was "
                + "accumulated and the EXEC call. This command is no longer allowed for the following reason: "
                + reason;
    }

    @Override
    public String refuseInScript(ClientConnection caller, String callerCommand, CommandSpec spec, byte[][] args) {
        return switch (checkAndLog(caller, callerCommand, AclLog.LUA, spec, args)) {
            case Selector.OK -> null;
            case Selector.DENIED_CMD -> "ERR The user executing the script can't run this command or subcommand";
            case Selector.DENIED_KEY -> "ERR The user executing the script can't access at least one of the keys "
                    + "mentioned in the command arguments";
            default -> "ERR The user executing the script can't publish to the channel mentioned in the command";
        };
    }

    /**
     * The check of a call by the client's user: OK, or the reason it is refused (Selector.DENIED_*), which is then
     * logged as happening in {@code context} (null: top level, or multi while the client queues a transaction)
     * while the client runs {@code running}.
     */
    private int checkAndLog(ClientConnection client, String running, String context, CommandSpec spec,
                            byte[][] args) {
        if (!(client.user() instanceof AclUser user) || user.unrestricted()) {
            return Selector.OK;
        }
        AclCommand command = index.of(spec.description());
        long outcome = user.check(command, args, new CallKeys(command, spec, args));
        if (outcome == Selector.OK) {
            return Selector.OK;
        }
        int reason = (int) (outcome >>> 32);
        log(client, running, reason, context != null ? context : context(client),
                object(reason, command, args, (int) outcome), user.nameBytes());
        return reason;
    }

    private static String context(ClientConnection client) {
        return client.multiState().active() ? AclLog.MULTI : AclLog.TOPLEVEL;
    }

    /** What the log names: the command, or the argument (key or channel) that was refused. */
    private static byte[] object(int reason, AclCommand command, byte[][] args, int where) {
        return reason == Selector.DENIED_CMD ? command.fullName.getBytes(StandardCharsets.ISO_8859_1) : args[where];
    }

    private void log(ClientConnection client, String running, int reason, String context, byte[] object,
                     byte[] username) {
        long now = engine.time().millis();
        log.add(new AclLog.Entry(reason, context, object, username, now, clientInfo.describe(client, running)),
                engine.config().getLong("acllog-max-len"));
    }

    @Override
    public boolean authenticate(CommandContext ctx, byte[] username, byte[] password) {
        AclUser user = users.get(latin1(username));
        ClientConnection client = ctx.client();
        if (user != null && user.accepts(password)) {
            client.authenticated(true);
            client.user(user);
            return true;
        }
        // run by EXEC when the client is in MULTI (a queued AUTH), which its client line then shows as running
        String running = client.multiState().active() ? "exec" : ctx.spec().fullName();
        log(client, running, Selector.DENIED_AUTH, context(client), ctx.arg(0), username);
        return false;
    }

    @Override
    public ClientUser user(byte[] name) {
        return users.get(latin1(name));
    }

    // ---- users (ACL SETUSER, GETUSER, DELUSER, LIST, USERS) ----

    /**
     * ACL SETUSER: the rules (a selector may span arguments) applied to a copy of the user, or to a new one, and
     * kept only when all of them applied; subscribers of the user that lost a channel are disconnected.
     *
     * @throws RedisError Redis's error for a bad name, an unclosed selector or the first rule that does not apply
     */
    public void setUser(ClientConnection caller, byte[] name, List<byte[]> args) {
        String key = latin1(name);
        if (Selector.hasSpaces(key)) {
            throw new RedisError("ERR Usernames can't contain spaces or null characters");
        }
        List<String> given = new ArrayList<>(args.size());
        for (byte[] arg : args) {
            given.add(latin1(arg));
        }
        int[] opening = {0};
        List<String> rules = SelectorArguments.merge(given, opening);
        if (rules == null) {
            throw new RedisError("ERR Unmatched parenthesis in acl selector starting at '"
                    + text(args.get(opening[0])) + "'.");
        }
        AclUser existing = users.get(key);
        AclUser staged = existing != null ? existing.copy() : newUser(key);
        for (String rule : rules) {
            try {
                staged.apply(rule);
            } catch (AclRuleError e) {
                throw new RedisError("ERR Error in ACL SETUSER modifier '"
                        + text(rule.getBytes(StandardCharsets.ISO_8859_1)) + "': " + e.getMessage());
            }
        }
        staged.refresh();
        if (existing == null) {
            users.put(key, staged);
            return;
        }
        if (!staged.keepsChannelsOf(existing)) {
            disconnectLostSubscribers(caller, existing, staged);
        }
        existing.copyFrom(staged);
    }

    /** ACLKillPubsubClientsIfNeeded: subscribers of the user listening to what the new rules no longer allow. */
    private void disconnectLostSubscribers(ClientConnection caller, AclUser user, AclUser updated) {
        List<byte[]> rules = updated.channelRules();
        List<ClientConnection> lost = new ArrayList<>();
        for (ClientConnection client : engine.clients()) {
            if (client.user() != user || !client.subscriptions().active()) {
                continue;
            }
            if (!allAllowed(client.subscriptions().patterns(), rules, true)
                    || !allAllowed(client.subscriptions().channels(), rules, false)
                    || !allAllowed(client.subscriptions().shardChannels(), rules, false)) {
                lost.add(client);
            }
        }
        for (ClientConnection client : lost) {
            disconnect(caller, client);
        }
    }

    private static boolean allAllowed(Collection<Bytes> subscribed, List<byte[]> rules, boolean patterns) {
        for (Bytes channel : subscribed) {
            if (!AclChannels.allowedBy(rules, channel.bytes(), patterns)) {
                return false;
            }
        }
        return true;
    }

    /** The caller's own connection closes once its reply is out; any other at once (freeClient). */
    private void disconnect(ClientConnection caller, ClientConnection client) {
        if (client == caller) {
            client.closeAfterReply(true);
        } else {
            engine.closeNow(client);
        }
    }

    /** ACL DELUSER: how many of the named users existed; their connections are closed. */
    public int deleteUsers(ClientConnection caller, List<byte[]> names) {
        for (byte[] name : names) {
            if (latin1(name).equals(DEFAULT)) {
                throw new RedisError("ERR The 'default' user cannot be removed");
            }
        }
        int deleted = 0;
        for (byte[] name : names) {
            AclUser user = users.remove(latin1(name));
            if (user != null) {
                disconnectClientsOf(caller, List.of(user));
                deleted++;
            }
        }
        return deleted;
    }

    /** ACLFreeUserAndKillClients: these users' connections return to the default user, unauthenticated, and close. */
    private void disconnectClientsOf(ClientConnection caller, Collection<AclUser> gone) {
        List<ClientConnection> victims = new ArrayList<>();
        for (ClientConnection client : engine.clients()) {
            if (client.user() instanceof AclUser user && gone.contains(user)) {
                victims.add(client);
            }
        }
        for (ClientConnection client : victims) {
            client.user(defaultUser);
            client.authenticated(false);
            disconnect(caller, client);
        }
    }

    /** A user by name, or null. */
    public AclUser find(byte[] name) {
        return users.get(latin1(name));
    }

    /** Every user in name order. */
    public Collection<AclUser> users() {
        return Collections.unmodifiableCollection(users.values());
    }

    /** "user name rules...", as ACL LIST and the ACL file show a user. */
    public String describe(AclUser user) {
        return "user " + user.name + " " + user.describe();
    }

    /** The root selector's rules as ACL GETUSER shows them: commands, keys, channels. */
    public String[] rootFields(AclUser user) {
        return fields(user.root());
    }

    /** Each non-root selector's rules as ACL GETUSER shows them. */
    public List<String[]> selectorFields(AclUser user) {
        List<String[]> fields = new ArrayList<>();
        for (Selector selector : user.selectors.subList(1, user.selectors.size())) {
            fields.add(fields(selector));
        }
        return fields;
    }

    private String[] fields(Selector selector) {
        return new String[] {SelectorText.commands(index, selector), SelectorText.keys(selector),
                SelectorText.channels(selector)};
    }

    public List<String> flagNames(AclUser user) {
        return user.flagNames();
    }

    public List<String> passwordHashes(AclUser user) {
        return Collections.unmodifiableList(user.passwords);
    }

    // ---- ACL CAT, GENPASS, DRYRUN ----

    /** The full names of the commands of a category (any case), or null when there is no such category. */
    public List<String> commandsIn(String category) {
        int position = AclCategories.NAMES.indexOf(Ascii.lower(category));
        if (position < 0) {
            return null;
        }
        List<String> names = new ArrayList<>();
        for (AclCommand command : index.inCategory(position)) {
            names.add(command.fullName);
        }
        return names;
    }

    public String generatePassword(long bits) {
        return Passwords.generate(bits);
    }

    /**
     * ACL DRYRUN once the user and command are known and the arity fits: null when the user may run the call,
     * else Redis's verbose refusal ("This user has no permissions to ...").
     *
     * @param fullName the command's full name ("get", "config|get") in Redis's table
     * @param spec     the simulator's command, when it implements it (its own key finding), else null
     */
    public String dryRun(AclUser user, String fullName, CommandSpec spec, byte[][] call) {
        AclCommand command = index.lookup(fullName);
        long outcome = user.check(command, call, new CallKeys(command, spec, call));
        if (outcome == Selector.OK) {
            return null;
        }
        int reason = (int) (outcome >>> 32);
        return switch (reason) {
            case Selector.DENIED_CMD -> "This user has no permissions to run the '" + command.fullName + "' command";
            case Selector.DENIED_KEY -> "This user has no permissions to access the '" + text(call[(int) outcome])
                    + "' key";
            default -> "This user has no permissions to access the '" + text(call[(int) outcome]) + "' channel";
        };
    }

    // ---- ACL LOG ----

    /** One log entry as ACL LOG shows it. */
    public record LogEntry(long count, String reason, String context, byte[] object, byte[] username,
                           double ageSeconds, String clientInfo) {
    }

    public List<LogEntry> logEntries(long count) {
        long now = engine.time().millis();
        List<LogEntry> entries = new ArrayList<>();
        for (AclLog.Entry e : log.newest(count)) {
            entries.add(new LogEntry(e.count, AclLog.REASONS[e.reason], e.context, e.object, e.username,
                    (now - e.createdMillis) / 1000.0, e.clientInfo));
        }
        return entries;
    }

    public void resetLog() {
        log.reset();
    }

    // ---- ACL LOAD and SAVE ----

    /** The aclfile, or null when none is configured. */
    private AclFile file() {
        String path = engine.config().get("aclfile");
        return path == null || path.isEmpty() ? null : new AclFile(path, engine.config().get("dir"));
    }

    public boolean hasFile() {
        return file() != null;
    }

    /**
     * ACL LOAD: every user of the file, or nothing at all when a line is wrong (the errors, one after the
     * other, are returned then). The default user keeps its identity and takes the file's rules (or the
     * defaults); every connection of another user is closed, as Redis frees the users it replaces.
     */
    public String load(ClientConnection caller) {
        return load(file(), caller);
    }

    private String load(AclFile file, ClientConnection caller) {
        Map<String, AclUser> loaded = new TreeMap<>();
        String errors = file.read(loaded, this::newUser);
        if (errors != null) {
            return errors;
        }
        AclUser newDefault = loaded.get(DEFAULT);
        defaultUser.copyFrom(newDefault != null ? newDefault : newDefaultUser());
        loaded.put(DEFAULT, defaultUser);
        List<AclUser> replaced = new ArrayList<>(users.values());
        replaced.remove(defaultUser);
        users = loaded;
        disconnectClientsOf(caller, replaced);
        return null;
    }

    /** ACL SAVE: every user, one line each, to the aclfile (through a temporary file renamed over it). */
    public boolean save() {
        StringBuilder text = new StringBuilder();
        for (AclUser user : users.values()) {
            text.append(describe(user)).append('\n');
        }
        return file().write(text.toString());
    }

    static String latin1(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** An argument as Redis prints it with %s into an error: its bytes, here read as UTF-8. */
    private static String text(byte[] bytes) {
        return dev.redsim.simulator.util.ByteText.decode(bytes);
    }
}
