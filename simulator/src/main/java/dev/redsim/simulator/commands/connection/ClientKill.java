package dev.redsim.simulator.commands.connection;

import dev.redsim.simulator.command.AccessControl;
import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.server.ClientUser;

import java.util.ArrayList;
import java.util.List;

/**
 * CLIENT KILL in both forms: the old one (one address, OK or "No such client") and the filter form (ID, ADDR,
 * LADDR, TYPE, USER, SKIPME; every filter must match; answers how many were closed). The caller's own
 * connection is closed after its reply, like Redis's CLIENT_CLOSE_AFTER_REPLY.
 */
final class ClientKill {
    private final CommandContext ctx;
    private long id;
    private String addr;
    private String laddr;
    /** The TYPE filter, null for any. */
    private String type;
    /** The USER filter, null for any. */
    private ClientUser user;
    private boolean skipMe = true;

    ClientKill(CommandContext ctx) {
        this.ctx = ctx;
    }

    /** Redis's client types; the simulator has normal, pubsub and replica clients (it is never a replica). */
    static void checkType(String type) {
        switch (type.toLowerCase()) {
            case "normal", "master", "replica", "slave", "pubsub" -> { }
            default -> throw new RedisError("ERR Unknown client type '" + type + "'");
        }
    }

    /** Redis's getClientType for the clients the simulator has: replicas are "slave", subscribed clients
     * "pubsub", others "normal". */
    static String typeOf(ClientConnection client) {
        if (client.replica()) {
            return "slave";
        }
        return client.subscriptions().active() ? "pubsub" : "normal";
    }

    /** A type name as given ("replica" is "slave"), lower case, to compare with {@link #typeOf}. */
    static String typeName(String given) {
        String type = given.toLowerCase();
        return type.equals("replica") ? "slave" : type;
    }

    void run() {
        if (ctx.argc() == 3) {
            killByOldAddress(ctx.text(2));
            return;
        }
        parseFilters();
        List<ClientConnection> victims = new ArrayList<>();
        for (ClientConnection client : ctx.engine().clients()) {
            if (matches(client)) {
                victims.add(client);
            }
        }
        for (ClientConnection victim : victims) {
            close(victim);
        }
        ctx.reply().integer(victims.size());
    }

    private void killByOldAddress(String address) {
        for (ClientConnection client : ctx.engine().clients()) {
            if (client.address().equals(address)) {
                ctx.reply().ok();
                close(client);
                return;
            }
        }
        throw new RedisError("ERR No such client");
    }

    private void parseFilters() {
        if ((ctx.argc() - 2) % 2 != 0) {
            throw RedisError.SYNTAX;
        }
        for (int i = 2; i < ctx.argc(); i += 2) {
            String value = ctx.text(i + 1);
            if (ctx.is(i, "id")) {
                Long parsed = Numbers.parseLongStrict(ctx.arg(i + 1));
                if (parsed == null || parsed <= 0) {
                    throw new RedisError("ERR client-id should be greater than 0");
                }
                id = parsed;
            } else if (ctx.is(i, "type")) {
                checkType(value);
                type = typeName(value);
            } else if (ctx.is(i, "addr")) {
                addr = value;
            } else if (ctx.is(i, "laddr")) {
                laddr = value;
            } else if (ctx.is(i, "user")) {
                AccessControl access = ctx.processor().accessControl();
                user = access == null ? null : access.user(ctx.arg(i + 1));
                if (user == null) {
                    throw new RedisError("ERR No such user '" + value + "'");
                }
            } else if (ctx.is(i, "skipme")) {
                if (ctx.is(i + 1, "yes")) {
                    skipMe = true;
                } else if (ctx.is(i + 1, "no")) {
                    skipMe = false;
                } else {
                    throw RedisError.SYNTAX;
                }
            } else {
                throw RedisError.SYNTAX;
            }
        }
    }

    private boolean matches(ClientConnection client) {
        return (type == null || typeOf(client).equals(type))
                && (id == 0 || client.id() == id)
                && (addr == null || client.address().equals(addr))
                && (laddr == null || client.localAddress().equals(laddr))
                && (user == null || client.user() == user)
                && !(skipMe && client == ctx.client());
    }

    private void close(ClientConnection client) {
        if (client == ctx.client()) {
            client.closeAfterReply(true);
        } else {
            client.markClosed();
            ctx.engine().blockedClients().forget(client); // freed at once in Redis: no longer counted as blocked
            if (client.connection() != null) {
                client.connection().close();
            }
        }
    }
}
