package dev.redsim.simulator.commands.connection;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.version.RedisVersion;

import java.nio.charset.StandardCharsets;

/** PING, ECHO, HELLO, AUTH, SELECT, QUIT, RESET (connection group). */
public final class ConnectionCommands implements CommandFamily {
    private static final RedisError WRONGPASS =
            new RedisError("WRONGPASS invalid username-password pair or user is disabled.");
    private static final byte[] DEFAULT_USER = "default".getBytes(StandardCharsets.US_ASCII);

    @Override
    public void register(CommandTable t) {
        t.handler("ping", this::ping);
        t.handler("echo", ctx -> ctx.reply().bulk(ctx.arg(1)));
        t.handler("hello", this::hello);
        t.handler("auth", this::auth);
        t.handler("select", this::select);
        t.handler("quit", this::quit);
        t.handler("reset", this::reset);
    }

    private void ping(CommandContext ctx) {
        if (ctx.argc() > 2) {
            throw RedisError.wrongArity("ping");
        }
        if (ctx.client().protocol() == 2 && ctx.client().subscriptions().active()) {
            pubSubPong(ctx);
            return;
        }
        if (ctx.argc() == 1) {
            ctx.reply().simple("PONG");
        } else {
            ctx.reply().bulk(ctx.arg(1));
        }
    }

    /** A subscribed RESP2 connection gets PING's answer in the shape of a message: ["pong", payload or ""]. */
    private static void pubSubPong(CommandContext ctx) {
        Reply r = ctx.reply();
        r.array(2);
        r.bulk("pong");
        r.bulk(ctx.argc() == 1 ? new byte[0] : ctx.arg(1));
    }

    private void hello(CommandContext ctx) {
        ClientConnection client = ctx.client();
        int protocol = client.protocol();
        int next = 1;
        if (ctx.argc() >= 2) {
            long version = ctx.longArg(1, new RedisError("ERR Protocol version is not an integer or out of range"));
            if (version < 2 || version > 3) {
                throw new RedisError("NOPROTO unsupported protocol version");
            }
            protocol = (int) version;
            next = 2;
        }
        String name = null;
        for (int j = next; j < ctx.argc(); j++) {
            int left = ctx.argc() - j - 1;
            if (ctx.is(j, "auth") && left >= 2) {
                // at once, as Redis 7.0 does: a later bad option fails HELLO with the client authenticated
                if (!ctx.processor().accessControl().authenticate(ctx, ctx.arg(j + 1), ctx.arg(j + 2))) {
                    throw WRONGPASS;
                }
                j += 2;
            } else if (ctx.is(j, "setname") && left >= 1) {
                name = ctx.text(j + 1);
                ClientCommands.validateName(name);
                j++;
            } else {
                throw new RedisError("ERR Syntax error in HELLO option '" + ctx.text(j) + "'");
            }
        }
        if (!client.hasAuthenticated()) {
            throw new RedisError("NOAUTH HELLO must be called with the client already authenticated, otherwise the "
                    + "HELLO AUTH <user> <pass> option can be used to authenticate the client and select the "
                    + "RESP protocol version at the same time");
        }
        if (name != null) {
            client.name(name);
        }
        client.protocol(protocol);
        Reply r = ctx.reply();
        r.map(7);
        r.bulk("server");
        r.bulk("redis");
        r.bulk("version");
        r.bulk(RedisVersion.IMITATED.version());
        r.bulk("proto");
        r.integer(protocol);
        r.bulk("id");
        r.integer(client.id());
        r.bulk("mode");
        r.bulk("yes".equals(ctx.engine().config().get("cluster-enabled")) ? "cluster" : "standalone");
        r.bulk("role");
        r.bulk(ctx.engine().replication().upstream() == null ? "master" : "replica");
        r.bulk("modules");
        r.array(0);
    }

    private void auth(CommandContext ctx) {
        if (ctx.argc() > 3) {
            throw RedisError.SYNTAX;
        }
        if (ctx.argc() == 2 && ctx.engine().defaultUser().nopass()) {
            throw new RedisError("ERR AUTH <password> called without any password configured for the default user. "
                    + "Are you sure your configuration is correct?");
        }
        byte[] user = ctx.argc() == 3 ? ctx.arg(1) : DEFAULT_USER;
        if (!ctx.processor().accessControl().authenticate(ctx, user, ctx.arg(ctx.argc() - 1))) {
            throw WRONGPASS;
        }
        ctx.reply().ok();
    }

    private void select(CommandContext ctx) {
        long index = ctx.longArg(1);
        if (index != 0 && "yes".equals(ctx.engine().config().get("cluster-enabled"))) {
            throw new RedisError("ERR SELECT is not allowed in cluster mode");
        }
        if (index < 0 || index >= ctx.engine().databaseCount()) {
            throw RedisError.DB_INDEX_OUT_OF_RANGE;
        }
        ctx.client().db((int) index);
        ctx.reply().ok();
    }

    /** Answers OK, unless CLIENT REPLY OFF/SKIP silenced this client (Redis then closes without a word). */
    private void quit(CommandContext ctx) {
        ctx.reply().ok();
        ctx.client().closeAfterReply(true);
    }

    private void reset(CommandContext ctx) {
        ClientConnection client = ctx.client();
        ctx.engine().discardTransaction(client);
        client.db(0);
        client.protocol(2);
        client.name("");
        client.replyMode(ClientConnection.ReplyMode.ON);
        client.reply().enabled(true);
        client.noEvict(false);
        client.noTouch(false);
        client.asking(false); // a cluster node's ASKING and READONLY end with the connection's state, as in Redis
        client.readOnlyReplicaReads(false);
        client.user(ctx.engine().defaultUser());
        client.authenticated(client.user().passwordless());
        ctx.engine().pubSub().forget(client);
        ctx.engine().monitors().remove(client);
        ctx.engine().tracking().disable(client);
        ctx.reply().simple("RESET");
    }
}
