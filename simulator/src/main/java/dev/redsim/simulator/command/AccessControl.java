package dev.redsim.simulator.command;

import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.server.ClientUser;

/**
 * Redis's ACL as the command path sees it (acl.c: ACLCheckAllPerm, ACLAuthenticateUser): the acl room implements
 * it. Each check answers null when the client's user may run the call; otherwise the refusal has been written to
 * the ACL log, and the error text is returned worded as Redis words it in that place.
 */
public interface AccessControl {
    /** processCommand's check, before a command runs or is queued: "NOPERM this user has no permissions ...". */
    String refuseCommand(ClientConnection client, CommandSpec spec, byte[][] args);

    /** execCommand's check of a queued command, in case the rules changed since it was queued. */
    String refuseQueued(ClientConnection client, CommandSpec spec, byte[][] args);

    /**
     * scriptCall's check of a redis.call: the script runs as its caller's user, and the log shows the caller
     * running {@code callerCommand} (EVAL, FCALL, ...).
     */
    String refuseInScript(ClientConnection caller, String callerCommand, CommandSpec spec, byte[][] args);

    /**
     * AUTH and HELLO AUTH: on success the connection runs as that user from now on; a failure is logged under the
     * name the client gave ({@code ctx}'s command is the one that tried).
     */
    boolean authenticate(CommandContext ctx, byte[] username, byte[] password);

    /** A user by name, or null (CLIENT KILL USER). */
    ClientUser user(byte[] name);
}
