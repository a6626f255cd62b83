package dev.redsim.simulator.commands.connection;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.commands.common.HelpText;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.server.ClientConnection;

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
        t.handler("client|getredir", ctx -> ctx.reply().integer(-1));
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

    /** Client-side caching (CLIENT TRACKING) is not offered, so tracking is always off. */
    private void trackingInfo(CommandContext ctx) {
        Reply r = ctx.reply();
        r.map(3);
        r.bulk("flags");
        r.set(1);
        r.bulk("off");
        r.bulk("redirect");
        r.integer(-1);
        r.bulk("prefixes");
        r.array(0);
    }

    /** Only meaningful in OPTIN/OPTOUT tracking mode, which no connection can be in here. */
    private void caching(CommandContext ctx) {
        throw new RedisError("ERR CLIENT CACHING can be called only when the client is in tracking mode with "
                + "OPTIN or OPTOUT mode enabled");
    }

    /** Redis's answer to extra arguments on subcommands that check their own argument count. */
    static RedisError wrongUse(CommandContext ctx) {
        return new RedisError("ERR unknown subcommand or wrong number of arguments for '" + ctx.text(1)
                + "'. Try " + ctx.text(0).toUpperCase() + " HELP.");
    }

    private void help(CommandContext ctx) {
        HelpText.reply(ctx.reply(), "CLIENT",
                "GETNAME", "The name of this connection.",
                "ID", "The id of this connection.",
                "INFO", "Describe this connection.",
                "KILL <ip:port>", "Close the connection from <ip:port>.",
                "KILL <filter> <value> [<filter> <value> ...]",
                "Close the connections matching every filter: ID, ADDR, LADDR, TYPE, USER, SKIPME (yes|no).",
                "LIST [TYPE (NORMAL|MASTER|REPLICA|PUBSUB)] [ID <id> ...]", "Describe the connections.",
                "NO-EVICT (ON|OFF)", "Exempt this connection from client eviction.",
                "PAUSE <timeout> [WRITE|ALL]", "Hold the commands of clients for <timeout> milliseconds.",
                "UNPAUSE", "End a client pause.",
                "REPLY (ON|OFF|SKIP)", "Turn the replies of this connection on, off, or off for one command.",
                "SETNAME <name>", "Name this connection.",
                "UNBLOCK <clientid> [TIMEOUT|ERROR]", "Wake a client blocked in a command.",
                "GETREDIR", "Where tracking notifications go (-1: nowhere).",
                "TRACKINGINFO", "Client-side caching state of this connection (always off here).",
                "CACHING (YES|NO)", "Track or skip the keys of the next command (needs OPTIN/OPTOUT tracking).",
                "HELP", "Print this text.");
    }
}
