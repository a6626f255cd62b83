package dev.redsim.simulator.commands.connection;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.server.ClientTracking;

import java.util.ArrayList;
import java.util.List;

/** CLIENT and its subcommands as Redis 7.0 has them (networking.c); 7.2's SETINFO and NO-TOUCH do not exist. */
public final class ClientCommands implements CommandFamily {

    /** CLIENT SETNAME and HELLO SETNAME refuse names with spaces, newlines or non-printable characters. */
    static void validateName(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '!' || c > '~') {
                throw new RedisError("ERR Client names cannot contain spaces, newlines or special characters.");
            }
        }
    }

    @Override
    public void register(CommandTable t) {
        t.handler("client|id", ctx -> ctx.reply().integer(ctx.client().id()));
        t.handler("client|setname", this::setName);
        t.handler("client|getname", this::getName);
        t.handler("client|info", this::info);
        t.handler("client|list", this::list);
        t.handler("client|kill", ctx -> new ClientKill(ctx).run());
        t.handler("client|reply", this::reply);
        t.handler("client|no-evict", this::noEvict);
        t.handler("client|pause", this::pause);
        t.handler("client|unpause", ctx -> {
            ctx.engine().endPause(true);
            ctx.reply().ok();
        });
        t.handler("client|getredir", this::getRedir);
        t.handler("client|tracking", ctx -> new ClientTrackingCommand(ctx).run());
        t.handler("client|unblock", this::unblock);
        t.handler("client|trackinginfo", this::trackingInfo);
        t.handler("client|caching", this::caching);
        t.handler("client|help", this::help);
    }

    private void setName(CommandContext ctx) {
        String name = ctx.text(2);
        validateName(name);
        ctx.client().name(name);
        ctx.reply().ok();
    }

    private void getName(CommandContext ctx) {
        String name = ctx.client().name();
        if (name.isEmpty()) {
            ctx.reply().nullBulk();
        } else {
            ctx.reply().bulk(name);
        }
    }

    private void info(CommandContext ctx) {
        ctx.reply().verbatim(ClientListLine.of(ctx.client(), ctx) + "\n");
    }

    /** CLIENT LIST [TYPE type] [ID id ...]. */
    private void list(CommandContext ctx) {
        List<ClientConnection> clients = new ArrayList<>(ctx.engine().clients());
        if (ctx.argc() == 4 && ctx.is(2, "type")) {
            ClientKill.checkType(ctx.text(3));
            String type = ClientKill.typeName(ctx.text(3));
            clients.removeIf(client -> !ClientKill.typeOf(client).equals(type)); // never a master here
        } else if (ctx.argc() > 3 && ctx.is(2, "id")) {
            List<ClientConnection> byId = new ArrayList<>();
            for (int i = 3; i < ctx.argc(); i++) {
                long id = ctx.longArg(i, new RedisError("ERR Invalid client ID"));
                ClientConnection client = ctx.engine().client(id);
                if (client != null && !byId.contains(client)) {
                    byId.add(client);
                }
            }
            clients = byId;
        } else if (ctx.argc() != 2) {
            throw RedisError.SYNTAX;
        }
        StringBuilder out = new StringBuilder();
        for (ClientConnection client : clients) {
            out.append(ClientListLine.of(client, ctx)).append('\n');
        }
        ctx.reply().verbatim(out.toString());
    }

    /** ON answers OK; OFF and SKIP answer nothing (the engine applies SKIP after this command). */
    private void reply(CommandContext ctx) {
        ClientConnection client = ctx.client();
        if (ctx.is(2, "on")) {
            client.replyMode(ClientConnection.ReplyMode.ON);
            client.reply().enabled(true);
            ctx.reply().ok();
        } else if (ctx.is(2, "off")) {
            client.replyMode(ClientConnection.ReplyMode.OFF);
            client.reply().enabled(false);
        } else if (ctx.is(2, "skip")) {
            if (client.replyMode() != ClientConnection.ReplyMode.OFF) {
                client.replyMode(ClientConnection.ReplyMode.SKIP_NEXT);
            }
        } else {
            throw RedisError.SYNTAX;
        }
    }

    private void noEvict(CommandContext ctx) {
        if (ctx.is(2, "on")) {
            ctx.client().noEvict(true);
        } else if (ctx.is(2, "off")) {
            ctx.client().noEvict(false);
        } else {
            throw RedisError.SYNTAX;
        }
        ctx.reply().ok();
    }

    /** CLIENT PAUSE timeout [WRITE|ALL]: holds clients' commands until the timeout passes on the simulator's clock. */
    private void pause(CommandContext ctx) {
        long timeout = ctx.longArg(2, new RedisError("ERR timeout is not an integer or out of range"));
        if (timeout < 0) {
            throw new RedisError("ERR timeout is negative");
        }
        if (ctx.argc() == 4) {
            if (!ctx.is(3, "write") && !ctx.is(3, "all")) {
                throw new RedisError("ERR CLIENT PAUSE mode must be WRITE or ALL");
            }
        } else if (ctx.argc() > 4) {
            throw wrongUse(ctx);
        }
        ctx.engine().pause().pause(ctx.engine().time().millis() + timeout, ctx.argc() == 4 && ctx.is(3, "write"));
        ctx.reply().ok();
    }

    /** Wakes a client blocked on keys, as a timeout (the default) or with an -UNBLOCKED error; 1 if it was blocked. */
    private void unblock(CommandContext ctx) {
        long id = ctx.longArg(2);
        boolean withError = false;
        if (ctx.argc() == 4) {
            if (ctx.is(3, "error")) {
                withError = true;
            } else if (!ctx.is(3, "timeout")) {
                throw new RedisError("ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR");
            }
        } else if (ctx.argc() > 4) {
            throw wrongUse(ctx);
        }
        ClientConnection target = ctx.engine().client(id);
        boolean woken = target != null
                && ctx.engine().blockedClients().unblockByCommand(ctx.engine(), target, withError);
        ctx.reply().integer(woken ? 1 : 0);
    }

    /** The client invalidations go to: 0 for this connection, -1 with tracking off. */
    private void getRedir(CommandContext ctx) {
        ClientTracking tracking = ctx.client().tracking();
        ctx.reply().integer(tracking.on() ? tracking.redirect() : -1);
    }

    /** CLIENT TRACKINGINFO: the flags as a set, the redirect, the BCAST prefixes in byte order. */
    private void trackingInfo(CommandContext ctx) {
        ClientTracking tracking = ctx.client().tracking();
        List<String> flags = new ArrayList<>();
        flags.add(tracking.on() ? "on" : "off");
        if (tracking.bcast()) {
            flags.add("bcast");
        }
        if (tracking.optIn()) {
            flags.add("optin");
            if (tracking.caching()) {
                flags.add("caching-yes");
            }
        }
        if (tracking.optOut()) {
            flags.add("optout");
            if (tracking.caching()) {
                flags.add("caching-no");
            }
        }
        if (tracking.noLoop()) {
            flags.add("noloop");
        }
        if (tracking.brokenRedirect()) {
            flags.add("broken_redirect");
        }
        Reply r = ctx.reply();
        r.map(3);
        r.bulk("flags");
        r.set(flags.size());
        for (String flag : flags) {
            r.bulk(flag);
        }
        r.bulk("redirect");
        r.integer(tracking.on() ? tracking.redirect() : -1);
        r.bulk("prefixes");
        r.array(tracking.prefixes().size());
        for (Bytes prefix : tracking.prefixes()) {
            r.bulk(prefix.bytes());
        }
    }

    /** CLIENT CACHING yes|no: whether the next command's keys are tracked, in OPTIN or OPTOUT mode. */
    private void caching(CommandContext ctx) {
        ClientTracking tracking = ctx.client().tracking();
        if (!tracking.on()) {
            throw new RedisError("ERR CLIENT CACHING can be called only when the client is in tracking mode with "
                    + "OPTIN or OPTOUT mode enabled");
        }
        if (ctx.is(2, "yes")) {
            if (!tracking.optIn()) {
                throw new RedisError("ERR CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.");
            }
        } else if (ctx.is(2, "no")) {
            if (!tracking.optOut()) {
                throw new RedisError("ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.");
            }
        } else {
            throw RedisError.SYNTAX;
        }
        tracking.caching(true);
        ctx.reply().ok();
    }

    /** Redis's answer to extra arguments on subcommands that check their own argument count. */
    static RedisError wrongUse(CommandContext ctx) {
        return ctx.subcommandSyntaxError();
    }

    private void help(CommandContext ctx) {
        ctx.reply().array(HELP.length);
        for (String line : HELP) {
            ctx.reply().simple(line);
        }
    }

    /** Redis 7.0's CLIENT HELP reply, line for line. */
    private static final String[] HELP = {
        "CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "CACHING (YES|NO)",
        "    Enable/disable tracking of the keys for next command in OPTIN/OPTOUT modes.",
        "GETREDIR",
        "    Return the client ID we are redirecting to when tracking is enabled.",
        "GETNAME",
        "    Return the name of the current connection.",
        "ID",
        "    Return the ID of the current connection.",
        "INFO",
        "    Return information about the current client connection.",
        "KILL <ip:port>",
        "    Kill connection made from <ip:port>.",
        "KILL <option> <value> [<option> <value> [...]]",
        "    Kill connections. Options are:",
        "    * ADDR (<ip:port>|<unixsocket>:0)",
        "      Kill connections made from the specified address",
        "    * LADDR (<ip:port>|<unixsocket>:0)",
        "      Kill connections made to specified local address",
        "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
        "      Kill connections by type.",
        "    * USER <username>",
        "      Kill connections authenticated by <username>.",
        "    * SKIPME (YES|NO)",
        "      Skip killing current connection (default: yes).",
        "LIST [options ...]",
        "    Return information about client connections. Options:",
        "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
        "      Return clients of specified type.",
        "UNPAUSE",
        "    Stop the current client pause, resuming traffic.",
        "PAUSE <timeout> [WRITE|ALL]",
        "    Suspend all, or just write, clients for <timeout> milliseconds.",
        "REPLY (ON|OFF|SKIP)",
        "    Control the replies sent to the current connection.",
        "SETNAME <name>",
        "    Assign the name <name> to the current connection.",
        "UNBLOCK <clientid> [TIMEOUT|ERROR]",
        "    Unblock the specified blocked client.",
        "TRACKING (ON|OFF) [REDIRECT <id>] [BCAST] [PREFIX <prefix> [...]]",
        "         [OPTIN] [OPTOUT] [NOLOOP]",
        "    Control server assisted client side caching.",
        "TRACKINGINFO",
        "    Report tracking status for the current connection.",
        "NO-EVICT (ON|OFF)",
        "    Protect current client connection from eviction.",
        "HELP",
        "    Prints this help."};
}
