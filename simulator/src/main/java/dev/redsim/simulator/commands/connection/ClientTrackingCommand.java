package dev.redsim.simulator.commands.connection;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.server.ClientTracking;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * CLIENT TRACKING ON|OFF [REDIRECT id] [BCAST] [PREFIX p ...] [OPTIN] [OPTOUT] [NOLOOP], with Redis 7.0's checks in
 * its order: the options are read first (a REDIRECT to a client that does not exist fails there), then ON checks
 * them against each other and against the mode the client is already in.
 */
final class ClientTrackingCommand {
    private final CommandContext ctx;
    private long redirect;
    private boolean bcast;
    private boolean optIn;
    private boolean optOut;
    private boolean noLoop;
    private final List<Bytes> prefixes = new ArrayList<>();

    ClientTrackingCommand(CommandContext ctx) {
        this.ctx = ctx;
    }

    void run() {
        readOptions();
        ClientConnection client = ctx.client();
        if (ctx.is(2, "on")) {
            checkOn(client.tracking());
            if (bcast && !prefixesAccepted(client.tracking())) {
                return;
            }
            ctx.engine().tracking().enable(client, redirect, bcast, optIn, optOut, noLoop, prefixes);
        } else if (ctx.is(2, "off")) {
            ctx.engine().tracking().disable(client);
        } else {
            throw RedisError.SYNTAX;
        }
        ctx.reply().ok();
    }

    private void readOptions() {
        for (int j = 3; j < ctx.argc(); j++) {
            boolean more = j + 1 < ctx.argc();
            if (ctx.is(j, "redirect") && more) {
                j++;
                if (redirect != 0) {
                    throw new RedisError("ERR A client can only redirect to a single other client");
                }
                redirect = ctx.longArg(j);
                // the client must exist now, though it may go away later (then the redirect is broken)
                if (ctx.engine().client(redirect) == null) {
                    throw new RedisError("ERR The client ID you want redirect to does not exist");
                }
            } else if (ctx.is(j, "bcast")) {
                bcast = true;
            } else if (ctx.is(j, "optin")) {
                optIn = true;
            } else if (ctx.is(j, "optout")) {
                optOut = true;
            } else if (ctx.is(j, "noloop")) {
                noLoop = true;
            } else if (ctx.is(j, "prefix") && more) {
                j++;
                prefixes.add(ctx.key(j));
            } else {
                throw RedisError.SYNTAX;
            }
        }
    }

    private void checkOn(ClientTracking current) {
        if (!bcast && !prefixes.isEmpty()) {
            throw new RedisError("ERR PREFIX option requires BCAST mode to be enabled");
        }
        if (current.on() && current.bcast() != bcast) {
            throw new RedisError("ERR You can't switch BCAST mode on/off before disabling tracking for this client, "
                    + "and then re-enabling it with a different mode.");
        }
        if (bcast && (optIn || optOut)) {
            throw new RedisError("ERR OPTIN and OPTOUT are not compatible with BCAST");
        }
        if (optIn && optOut) {
            throw new RedisError("ERR You can't specify both OPTIN mode and OPTOUT mode");
        }
        if ((optIn && current.optOut()) || (optOut && current.optIn())) {
            throw new RedisError("ERR You can't switch OPTIN/OPTOUT mode before disabling tracking for this "
                    + "client, and then re-enabling it with a different mode.");
        }
    }

    /**
     * checkPrefixCollisionsOrReply: no prefix may be a prefix of another, among the new ones or with the client's.
     * Redis 7.0 has a slip here that the simulator keeps: when the first prefix that overlaps a later one is not
     * the first given, the error is written and the command goes on, enabling tracking and answering OK as well.
     */
    private boolean prefixesAccepted(ClientTracking current) {
        for (int i = 0; i < prefixes.size(); i++) {
            byte[] p = prefixes.get(i).bytes();
            for (Bytes existing : current.prefixes()) {
                if (overlap(existing.bytes(), p)) {
                    refuse(overlapError(p, "an existing prefix", existing.bytes()));
                    return false;
                }
            }
            for (int j = i + 1; j < prefixes.size(); j++) {
                byte[] other = prefixes.get(j).bytes();
                if (overlap(p, other)) {
                    refuse(overlapError(p, "another provided prefix", other));
                    return i != 0;
                }
            }
        }
        return true;
    }

    /** An error written in place, not thrown: the caller decides whether the command goes on. */
    private void refuse(String message) {
        ctx.engine().stats().countError(message);
        ctx.reply().error(message);
    }

    private static boolean overlap(byte[] a, byte[] b) {
        int n = Math.min(a.length, b.length);
        for (int i = 0; i < n; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    /** Redis formats the prefixes with %s: a prefix ends at its first zero byte there. */
    private static String overlapError(byte[] prefix, String what, byte[] other) {
        return "ERR Prefix '" + cString(prefix) + "' overlaps with " + what + " '" + cString(other)
                + "'. Prefixes for a single client must not overlap.";
    }

    private static String cString(byte[] bytes) {
        int end = 0;
        while (end < bytes.length && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
    }
}
