package dev.redsim.simulator.commands.acl;

import dev.redsim.simulator.acl.Acl;
import dev.redsim.simulator.acl.AclCategories;
import dev.redsim.simulator.acl.AclUser;
import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandDescription;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.commands.common.HelpText;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.protocol.Reply;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The ACL command (acl.c's aclCommand): users, categories, passwords, the log, dry runs and the aclfile, over
 * the server's {@link Acl}. Rule texts are ISO-8859-1 strings (one char per byte) and are written back as such.
 */
public final class AclCommands implements CommandFamily {
    private static final int GENPASS_MAX_BITS = 4096;
    private static final RedisError NO_FILE = new RedisError("ERR This Redis instance is not configured to use an "
            + "ACL file. You may want to specify users via the ACL SETUSER command and then issue a CONFIG REWRITE "
            + "(assuming you have a Redis configuration file set) in order to store users in the Redis "
            + "configuration.");

    private final Acl acl;

    /** @param acl the server's ACL; null for a table that is only read (bindings, docs), never run */
    public AclCommands(Acl acl) {
        this.acl = acl;
    }

    @Override
    public void register(CommandTable t) {
        t.handler("acl|setuser", this::setUser);
        t.handler("acl|getuser", this::getUser);
        t.handler("acl|deluser", this::delUser);
        t.handler("acl|list", this::list);
        t.handler("acl|users", this::users);
        t.handler("acl|whoami", this::whoAmI);
        t.handler("acl|cat", this::cat);
        t.handler("acl|genpass", this::genPass);
        t.handler("acl|log", this::log);
        t.handler("acl|dryrun", this::dryRun);
        t.handler("acl|load", this::load);
        t.handler("acl|save", this::save);
        t.handler("acl|help", this::help);
    }

    private void setUser(CommandContext ctx) {
        List<byte[]> rules = Arrays.asList(ctx.args()).subList(3, ctx.argc());
        acl.setUser(ctx.client(), ctx.arg(2), rules);
        ctx.reply().ok();
    }

    /** A map of flags, passwords, the root selector's commands, keys and channels, and the other selectors. */
    private void getUser(CommandContext ctx) {
        AclUser user = acl.find(ctx.arg(2));
        Reply r = ctx.reply();
        if (user == null) {
            r.nullBulk();
            return;
        }
        r.map(6);
        r.bulk("flags");
        List<String> flags = acl.flagNames(user);
        r.set(flags.size());
        for (String flag : flags) {
            r.bulk(flag);
        }
        r.bulk("passwords");
        List<String> passwords = acl.passwordHashes(user);
        r.array(passwords.size());
        for (String password : passwords) {
            r.bulk(password);
        }
        selectorFields(r, acl.rootFields(user));
        r.bulk("selectors");
        List<String[]> selectors = acl.selectorFields(user);
        r.array(selectors.size());
        for (String[] selector : selectors) {
            r.map(3);
            selectorFields(r, selector);
        }
    }

    private static void selectorFields(Reply r, String[] fields) {
        r.bulk("commands");
        r.bulk(bytes(fields[0]));
        r.bulk("keys");
        r.bulk(bytes(fields[1]));
        r.bulk("channels");
        r.bulk(bytes(fields[2]));
    }

    private void delUser(CommandContext ctx) {
        List<byte[]> names = Arrays.asList(ctx.args()).subList(2, ctx.argc());
        ctx.reply().integer(acl.deleteUsers(ctx.client(), names));
    }

    private void list(CommandContext ctx) {
        List<AclUser> users = new ArrayList<>(acl.users());
        ctx.reply().array(users.size());
        for (AclUser user : users) {
            ctx.reply().bulk(bytes(acl.describe(user)));
        }
    }

    private void users(CommandContext ctx) {
        List<AclUser> users = new ArrayList<>(acl.users());
        ctx.reply().array(users.size());
        for (AclUser user : users) {
            ctx.reply().bulk(user.nameBytes());
        }
    }

    private void whoAmI(CommandContext ctx) {
        if (ctx.client().user() instanceof AclUser user) {
            ctx.reply().bulk(user.nameBytes());
        } else {
            ctx.reply().bulk(ctx.client().user().name());
        }
    }

    private void cat(CommandContext ctx) {
        Reply r = ctx.reply();
        if (ctx.argc() == 2) {
            r.array(AclCategories.NAMES.size());
            for (String name : AclCategories.NAMES) {
                r.bulk(name);
            }
            return;
        }
        if (ctx.argc() != 3) {
            throw wrongUse(ctx);
        }
        List<String> commands = acl.commandsIn(ctx.text(2));
        if (commands == null) {
            String name = ctx.text(2);
            throw new RedisError("ERR Unknown category '" + (name.length() > 128 ? name.substring(0, 128) : name)
                    + "'");
        }
        r.array(commands.size());
        for (String command : commands) {
            r.bulk(command);
        }
    }

    private void genPass(CommandContext ctx) {
        if (ctx.argc() > 3) {
            throw wrongUse(ctx);
        }
        long bits = ctx.argc() == 3 ? ctx.longArg(2) : 256;
        if (bits <= 0 || bits > GENPASS_MAX_BITS) {
            throw new RedisError("ERR ACL GENPASS argument must be the number of bits for the output password, a "
                    + "positive number up to " + GENPASS_MAX_BITS);
        }
        ctx.reply().bulk(acl.generatePassword(bits));
    }

    /** ACL LOG [count | RESET]: the newest entries first, 10 unless told. */
    private void log(CommandContext ctx) {
        if (ctx.argc() > 3) {
            throw wrongUse(ctx);
        }
        long count = 10;
        if (ctx.argc() == 3) {
            if (ctx.is(2, "reset")) {
                acl.resetLog();
                ctx.reply().ok();
                return;
            }
            count = Math.max(0, ctx.longArg(2));
        }
        List<Acl.LogEntry> entries = acl.logEntries(count);
        Reply r = ctx.reply();
        r.array(entries.size());
        for (Acl.LogEntry entry : entries) {
            r.map(7);
            r.bulk("count");
            r.integer(entry.count());
            r.bulk("reason");
            r.bulk(entry.reason());
            r.bulk("context");
            r.bulk(entry.context());
            r.bulk("object");
            r.bulk(entry.object());
            r.bulk("username");
            r.bulk(entry.username());
            r.bulk("age-seconds");
            r.doubleValue(entry.ageSeconds());
            r.bulk("client-info");
            r.bulk(entry.clientInfo());
        }
    }

    /**
     * ACL DRYRUN user command [arg ...]: OK, or why the user may not (a bulk string, not an error). The command
     * is looked up as a call would be (a container takes its subcommand), among every command Redis has.
     */
    private void dryRun(CommandContext ctx) {
        AclUser user = acl.find(ctx.arg(2));
        if (user == null) {
            throw new RedisError("ERR User '" + ctx.text(2) + "' not found");
        }
        byte[][] call = Arrays.copyOfRange(ctx.args(), 3, ctx.argc());
        CommandDescription description = describe(ctx, call);
        if (description == null) {
            throw new RedisError("ERR Command '" + ctx.text(3) + "' not found");
        }
        if (!description.arityAccepts(call.length)) {
            throw RedisError.wrongArity(description.fullName());
        }
        CommandSpec spec = ctx.processor().table().lookupFullName(description.fullName());
        String refusal = acl.dryRun(user, description.fullName(), spec, call);
        if (refusal == null) {
            ctx.reply().ok();
        } else {
            ctx.reply().bulk(refusal);
        }
    }

    /** Redis's lookupCommand over its whole table: the command named first, or its subcommand named second. */
    private static CommandDescription describe(CommandContext ctx, byte[][] call) {
        String name = CommandTable.lowerAscii(call[0]);
        if (name.indexOf('|') >= 0) {
            return null;
        }
        CommandDescription command = ctx.processor().table().catalog().describe(name);
        if (command == null || command.subcommands().isEmpty() || call.length == 1) {
            return command;
        }
        return command.subcommands().get(CommandTable.lowerAscii(call[1]));
    }

    private void load(CommandContext ctx) {
        if (!acl.hasFile()) {
            throw NO_FILE;
        }
        String errors = acl.load(ctx.client());
        if (errors != null) {
            throw new RedisError("ERR " + errors);
        }
        ctx.reply().ok();
    }

    private void save(CommandContext ctx) {
        if (!acl.hasFile()) {
            throw NO_FILE;
        }
        if (!acl.save()) {
            throw new RedisError("ERR There was an error trying to save the ACLs. Please check the server logs for "
                    + "more information");
        }
        ctx.reply().ok();
    }

    private void help(CommandContext ctx) {
        HelpText.reply(ctx.reply(), "ACL",
                "CAT [<category>]", "The categories, or the commands of one category.",
                "DELUSER <username> [<username> ...]", "Remove users (and close their connections).",
                "DRYRUN <username> <command> [<arg> ...]", "Whether the user could run this call, without running it.",
                "GETUSER <username>", "A user's flags, passwords and rules.",
                "GENPASS [<bits>]", "A random password of 256 bits, or of the given number of bits.",
                "LIST", "Every user, as the lines of an ACL file.",
                "LOAD", "Replace the users with those of the ACL file.",
                "LOG [<count> | RESET]", "The newest refusals and failed logins, or forget them.",
                "SAVE", "Write the users to the ACL file.",
                "SETUSER <username> <attribute> [<attribute> ...]", "Create a user or change its rules.",
                "USERS", "The names of the users.",
                "WHOAMI", "The user of this connection.",
                "HELP", "Print this text.");
    }

    private static RedisError wrongUse(CommandContext ctx) {
        return ctx.subcommandSyntaxError();
    }

    private static byte[] bytes(String latin1) {
        return latin1.getBytes(StandardCharsets.ISO_8859_1);
    }
}
